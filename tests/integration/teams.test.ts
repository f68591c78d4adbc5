// Issue 38, points 2, 3 and 5 (decision 052): teams register themselves in a competition's
// categories. A member creates a team and captains it; others join with its invitation; an adult
// confirms as coach; organisers and admins see every team, approve or reject it and download the
// CSV; admins merge duplicate schools. Every action is refused to those who may not, every bad
// input is a Spanish message with a 4xx and nothing changed; public pages show competitors as
// 'Ana Q.'; a member's data download carries their teams and their account's deletion hands a team on.
import { randomUUID } from "node:crypto";
import { and, asc, count, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditLog,
  competitionCategories,
  competitionTeams,
  events,
  mailOutbox,
  payments,
  schools,
  teamInvitations,
  teamMembers,
  users,
  type User,
} from "~/db/schema.server";
import { COACH_CONSENT, TEAM_MESSAGES } from "~/competitions/teams";
import { isAdult, newInvitationCode, setRobotPhoto } from "~/competitions/team-commands.server";
import { deleteEvent } from "~/events/event-commands.server";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { expireHolds } from "~/hold-expiry.server";
import { composeMail, mailSite } from "~/mail/compose.server";
import { MAIL_DRAFTS } from "~/mail-drafts.server";
import { getQueuedMail } from "~/mail/mail.server";
import { decidePayment, recordRefund } from "~/payments/review.server";
import { grantRole } from "~/members/roles.server";
import type { MemberData } from "~/member-data.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent } from "../helpers/events";
import { shown } from "../helpers/shown";
import { startTestServer, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person;
let organiserElsewhere: Person;
let door: Person;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  organiserElsewhere = await createMember(server, `otra-${randomUUID()}@example.com`, "Otra Org");
  door = await createMember(server, `puerta-${randomUUID()}@example.com`, "Pedro Puerta");
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&quot;", '"');

/** A person with a full name and, when given, a birth date on their profile. */
async function person(name: string, birthDate: string | null = "2010-03-04") {
  const p = await createMember(server, `${randomUUID()}@example.com`, name);
  await server.db
    .update(users)
    .set({ nombreCompleto: name, fechaNacimiento: birthDate })
    .where(eq(users.id, p.user.id));
  return p;
}

/** A competition (with its organiser and door staff) and one category in it. */
async function competition(
  category: Partial<typeof competitionCategories.$inferInsert> = {},
): Promise<{ eventId: string; categoryId: string }> {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Clash Robotics ${randomUUID().slice(0, 4)}`,
  });
  const elsewhere = await createTestEvent(server.db, admin.user, { nombreEvento: "Otro evento" });
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, {
    userId: organiserElsewhere.user.id,
    kind: "organiser",
    eventId: elsewhere.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  const [made] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name: "Robot Sumo",
      level: "secundaria",
      minMembers: 2,
      maxMembers: 3,
      coachRequired: true,
      capacity: 4,
      registrationClosesAt: new Date("2099-11-30T22:00:00Z"),
      format: "llaves",
      ...category,
    })
    .returning({ id: competitionCategories.id });
  return { eventId: event.id, categoryId: made!.id };
}

const TEAM = {
  nombre: "Los Cóndores",
  colegio: "Colegio San Calixto",
  ciudad: "La Paz",
  robot: "Illimani",
};

const create = (p: Person, categoryId: string, fields: Record<string, string | string[]> = {}) =>
  p.client.post(`/equipos/nuevo?categoria=${categoryId}`, { categoryId, ...TEAM, ...fields });

/** Creates a team through the page; returns its id and its live invitation code. */
async function team(p: Person, categoryId: string, fields: Record<string, string> = {}) {
  const reply = await create(p, categoryId, fields);
  expect(reply.status, reply.text.slice(0, 500)).toBe(302);
  const id = pathOf(reply.location)!.split("/").pop()!;
  return { id, code: await codeOf(id) };
}

async function codeOf(teamId: string) {
  const [row] = await server.db
    .select({ code: teamInvitations.code })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), sql`revoked_at is null`));
  return row?.code ?? null;
}

async function state() {
  return {
    teams: await server.db.select().from(competitionTeams).orderBy(asc(competitionTeams.id)),
    members: await server.db.select().from(teamMembers).orderBy(asc(teamMembers.userId)),
    schools: (await server.db.select({ n: count() }).from(schools))[0]!.n,
    audit: (await server.db.select({ n: count() }).from(auditLog))[0]!.n,
  };
}

async function teamRow(id: string) {
  const [row] = await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
  return row!;
}

function alerts(html: string): string[] {
  return [...html.matchAll(/<p class="field-error"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]!);
}

const join = (p: Person, code: string, intent = "join", extra: Record<string, string> = {}) =>
  p.client.post(`/equipos/unirse/${code}`, { intent, ...extra });

test("a member registers a team and captains it; the school is added; the event's page lists it with competitors as 'Ana Q.'", async () => {
  const { eventId, categoryId } = await competition();
  const ana = await person("Ana Quispe Mamani");
  const form = await ana.client.get(`/equipos/nuevo?categoria=${categoryId}`);
  expect(form.status).toBe(200);
  expect(text(form.text)).toContain("Inscribir un equipo");
  expect(text(form.text)).toContain(COACH_CONSENT);

  const { id, code } = await team(ana, categoryId);
  expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
  const [row] = await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
  expect(row).toMatchObject({
    name: "Los Cóndores",
    city: "La Paz",
    robotName: "Illimani",
    captainId: ana.user.id,
    status: "pending",
    eventId,
  });
  const [school] = await server.db.select().from(schools).where(eq(schools.id, row!.schoolId));
  expect(school!.name).toBe("Colegio San Calixto");

  // A second team names the school in other capitals: the same school.
  const beto = await person("Beto Choque");
  const second = await team(beto, categoryId, {
    nombre: "Otro equipo",
    colegio: "colegio san calixto",
  });
  const [other] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, second.id));
  expect(other!.schoolId).toBe(row!.schoolId);

  const page = text((await new BrowserClient(server.url).get(`/detalles/${eventId}`)).text);
  expect(page).toContain("Equipos inscritos (2)");
  expect(page).toContain("Los Cóndores");
  expect(page).toContain("Ana Q.");
  expect(page).not.toContain("Mamani");
  expect(page).not.toContain("Quispe");
  expect(page).not.toContain(ana.user.email);
  expect(page).not.toContain("2010-03-04");
  expect(page).toContain("Quedan 2 lugares de 4");
  expect(page).toContain(`/equipos/nuevo?categoria=${categoryId}`);
});

test("registering: a visitor is sent to sign in; bad input is refused in Spanish with nothing changed", async () => {
  const { categoryId } = await competition();
  const visitor = new BrowserClient(server.url);
  const away = await visitor.get(`/equipos/nuevo?categoria=${categoryId}`);
  expect(away.status).toBe(302);
  expect(pathOf(away.location)).toBe(
    `/login?redirectTo=${encodeURIComponent(`/equipos/nuevo?categoria=${categoryId}`)}`,
  );
  expect((await visitor.post("/equipos/nuevo", { categoryId, ...TEAM })).status).toBe(302);

  const ana = await person("Ana Flores");
  const before = await state();
  const cases: [Record<string, string | string[]>, number, string][] = [
    [{ nombre: "" }, 400, TEAM_MESSAGES.nameMissing],
    [{ nombre: "x".repeat(61) }, 400, TEAM_MESSAGES.nameTooLong],
    [{ colegio: "   " }, 400, TEAM_MESSAGES.schoolMissing],
    [{ colegio: "c".repeat(121) }, 400, TEAM_MESSAGES.schoolTooLong],
    [{ ciudad: "" }, 400, TEAM_MESSAGES.cityMissing],
    [{ ciudad: "c".repeat(61) }, 400, TEAM_MESSAGES.cityTooLong],
    [{ robot: "" }, 400, TEAM_MESSAGES.robotMissing],
    [{ robot: "r".repeat(61) }, 400, TEAM_MESSAGES.robotTooLong],
    [{ nombre: ["Uno", "Dos"] }, 400, TEAM_MESSAGES.malformed],
    [{ categoryId: randomUUID() }, 404, TEAM_MESSAGES.categoryNotFound],
    [{ categoryId: "no-es-un-id" }, 404, TEAM_MESSAGES.categoryNotFound],
  ];
  for (const [fields, status, message] of cases) {
    const reply = await create(ana, categoryId, fields);
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    expect(alerts(reply.text), JSON.stringify(fields)).toContain(message);
  }
  // No category at all, or a malformed body.
  expect((await ana.client.post("/equipos/nuevo", { ...TEAM })).status).toBe(404);
  const garbage = await ana.client.request("POST", "/equipos/nuevo", {
    body: "%%%=&&&",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  expect(garbage.status).toBeGreaterThanOrEqual(400);
  expect(garbage.status).toBeLessThan(500);
  expect((await ana.client.get("/equipos/nuevo?categoria=no-es-un-id")).status).toBe(404);
  expect(await state()).toEqual(before);

  // A name that looks like a link is only text: shown escaped, never as a link.
  const { id } = await team(ana, categoryId, { nombre: "javascript:alert(1)" });
  const shown = await new BrowserClient(server.url).get(`/equipos/${id}`);
  expect(shown.text).not.toContain('href="javascript:');
  expect(text(shown.text)).toContain("javascript:alert(1)");
  // The robot's photo is only ever an uploaded image's path.
  await expect(
    setRobotPhoto(server.db, ana.user, id, "javascript:alert(1)", new Date()),
  ).rejects.toMatchObject({ status: 400 });
});

test("a second team in a category, a taken name and a passed deadline are refused; a full category puts the team on its waiting list", async () => {
  const { categoryId } = await competition({ capacity: 2 });
  const ana = await person("Ana Flores");
  await team(ana, categoryId);
  const again = await create(ana, categoryId, { nombre: "Segundo" });
  expect(again.status).toBe(409);
  expect(alerts(again.text)).toContain(TEAM_MESSAGES.alreadyInCategory);

  const beto = await person("Beto Choque");
  const taken = await create(beto, categoryId, { nombre: "LOS CÓNDORES" });
  expect(taken.status).toBe(409);
  expect(alerts(taken.text)).toContain(TEAM_MESSAGES.nameTaken);
  await team(beto, categoryId, { nombre: "Los Pumas" });

  const caro = await person("Caro Mamani");
  const waiting = await team(caro, categoryId, { nombre: "Las Vicuñas" });
  expect((await teamRow(waiting.id)).status).toBe("waiting");

  const closed = await competition({ registrationClosesAt: new Date("2020-01-01T00:00:00Z") });
  const late = await create(caro, closed.categoryId);
  expect(late.status).toBe(409);
  expect(alerts(late.text)).toContain(TEAM_MESSAGES.closed);
});

test("joining by invitation: a visitor signs in first and comes back; forged, reused and old codes are refused; a full team takes nobody more", async () => {
  const { categoryId } = await competition({ maxMembers: 2, minMembers: 2 });
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);

  const visitor = new BrowserClient(server.url);
  const away = await visitor.get(`/equipos/unirse/${code}`);
  expect(away.status).toBe(302);
  expect(pathOf(away.location)).toBe(
    `/login?redirectTo=${encodeURIComponent(`/equipos/unirse/${code}`)}`,
  );

  const beto = await person("Beto Choque");
  const page = await beto.client.get(`/equipos/unirse/${code}`);
  expect(page.status).toBe(200);
  expect(text(page.text)).toContain("Invitación al equipo «Los Cóndores»");
  // The code typed with dashes and small letters finds the same link.
  const typed = await beto.client.get(
    `/equipos/unirse?codigo=${encodeURIComponent(`${code!.slice(0, 4).toLowerCase()}-${code!.slice(4)}`)}`,
  );
  expect(pathOf(typed.location)).toBe(`/equipos/unirse/${code}`);

  const joined = await join(beto, code!);
  expect(joined.status).toBe(302);
  expect(pathOf(joined.location)).toBe(`/equipos/${id}`);
  // Full at two: nobody else joins as a competitor (the link still serves the coach).
  const caro = await person("Caro Mamani");
  const before = await state();
  const over = await join(caro, code!);
  expect(over.status).toBe(409);
  expect(alerts(over.text)).toContain(TEAM_MESSAGES.teamFull);
  const reused0 = await join(beto, code!);
  expect(reused0.status).toBe(409);
  expect(alerts(reused0.text)).toContain(TEAM_MESSAGES.alreadyMember);
  for (const [who, c] of [
    [caro, newInvitationCode()],
    [caro, "no-es-un-codigo"],
    [caro, "A".repeat(200)],
  ] as const) {
    const reply = await join(who, c);
    expect(reply.status, c).toBe(404);
    expect(alerts(reply.text)).toContain(TEAM_MESSAGES.invitationInvalid);
  }
  const forged = await caro.client.get(`/equipos/unirse/${newInvitationCode()}`);
  expect(forged.status).toBe(404);
  expect(alerts(forged.text)).toContain(TEAM_MESSAGES.invitationInvalid);
  expect(await state()).toEqual(before);

  // A member of one team cannot join another in the same category; a new link voids the old one.
  const other = await person("Dani Rojas");
  const second = await team(other, categoryId, { nombre: "Los Pumas" });
  const twice = await join(beto, second.code!);
  expect(twice.status).toBe(409);
  expect(alerts(twice.text)).toContain(TEAM_MESSAGES.alreadyInCategory);
  // Someone already in it, told so.
  const reused = await join(other, second.code!);
  expect(reused.status).toBe(409);
  expect(alerts(reused.text)).toContain(TEAM_MESSAGES.alreadyMember);
  expect(
    (await other.client.post(`/equipos/${second.id}`, { intent: "renewInvitation" })).status,
  ).toBe(302);
  const renewed = await codeOf(second.id);
  expect(renewed).not.toBe(second.code);
  expect((await join(caro, second.code!)).status).toBe(404);
  expect((await join(caro, renewed!)).status).toBe(302);
  expect((await join(caro, "x", "otra")).status).toBe(400);
});

test("a coach is an adult by their own birth date, confirms with the consent text and may coach several teams; a minor or an unknown birth date cannot", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const first = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const second = await team(beto, categoryId, { nombre: "Los Pumas" });

  const minor = await person("Nico Menor", "2012-01-01");
  const unknown = await person("Sin Fecha", null);
  const member = await person("Eva Equipo");
  await join(member, first.code!);
  const before = await state();
  for (const [who, status, message, consent] of [
    [minor, 403, TEAM_MESSAGES.coachMinor, "si"],
    [unknown, 403, TEAM_MESSAGES.coachNoBirthDate, "si"],
    [member, 409, TEAM_MESSAGES.coachIsMember, "si"],
  ] as const) {
    const reply = await join(who, first.code!, "coach", { consentimiento: consent });
    expect(reply.status, who.user.email).toBe(status);
    expect(alerts(reply.text)).toContain(message);
  }
  const coach = await person("Carla Entrenadora", "1985-06-15");
  const noConsent = await join(coach, first.code!, "coach");
  expect(noConsent.status).toBe(400);
  expect(alerts(noConsent.text)).toContain(TEAM_MESSAGES.coachConsent);
  expect(await state()).toEqual(before);

  expect((await join(coach, first.code!, "coach", { consentimiento: "si" })).status).toBe(302);
  expect((await join(coach, second.code!, "coach", { consentimiento: "si" })).status).toBe(302);
  const teams = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.coachId, coach.user.id));
  expect(teams).toHaveLength(2);
  expect(teams.every((t) => t.coachConfirmedAt !== null)).toBe(true);
  // Another adult is told the team has its coach; the coach cannot also compete in it.
  const other = await person("Otro Adulto", "1980-01-01");
  const taken = await join(other, first.code!, "coach", { consentimiento: "si" });
  expect(taken.status).toBe(409);
  expect(alerts(taken.text)).toContain(TEAM_MESSAGES.coachTaken);
  const asMember = await join(coach, first.code!);
  expect(asMember.status).toBe(409);
  expect(alerts(asMember.text)).toContain(TEAM_MESSAGES.memberIsCoach);

  // Complete: two members and the coach (no fee).
  const page = text((await ana.client.get(`/equipos/${first.id}`)).text);
  expect(page).toContain("Equipo completo");
  expect(page).toContain("Carla Entrenadora (confirmado)");

  expect(isAdult("2008-11-28", "2026-11-28")).toBe(true);
  expect(isAdult("2008-11-29", "2026-11-28")).toBe(false);
  expect(isAdult(null, "2026-11-28")).toBe(false);
});

test("a team's page: its members, coach and organisers read full names and the invitation; visitors, door staff, other members and other events' organisers read 'Ana F.'", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  const stranger = await person("Zoe Extraña");
  await team(stranger, categoryId, { nombre: "Los Pumas" });

  for (const [who, insider] of [
    [null, false],
    [stranger, false],
    [door, false],
    [organiserElsewhere, false],
    [beto, true],
    [ana, true],
    [organiser, true],
    [admin, true],
  ] as const) {
    const client = who ? who.client : new BrowserClient(server.url);
    const reply = await client.get(`/equipos/${id}`);
    expect(reply.status).toBe(200);
    const page = text(reply.text);
    const label = who?.user.email ?? "visitante";
    expect(page.includes("Beto Choque"), label).toBe(insider);
    expect(page.includes(`/equipos/unirse/${code}`), label).toBe(insider);
    // Outsiders see the short public name; insiders the full one.
    expect(page.includes("Beto C."), label).toBe(!insider);
    expect(page).not.toContain(beto.user.email);
    expect(page).not.toContain("2010-03-04");
    expect(reply.headers.get("Cache-Control")).toContain("no-store");
  }
  expect((await ana.client.get(`/equipos/${randomUUID()}`)).status).toBe(404);
  expect((await ana.client.get("/equipos/no-es-un-id")).status).toBe(404);
});

test("only the captain edits, and only until the deadline; others are refused per role", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  const stranger = await person("Zoe Extraña");
  await team(stranger, categoryId, { nombre: "Los Pumas" });
  const edit = { intent: "updateTeam", ...TEAM, nombre: "Los Nuevos Cóndores" };

  const before = await state();
  const visitor = await new BrowserClient(server.url).post(`/equipos/${id}`, edit);
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toMatch(/^\/login/);
  for (const who of [beto, stranger, door, organiserElsewhere, organiser, admin]) {
    const reply = await who.client.post(`/equipos/${id}`, edit);
    expect(reply.status, who.user.email).toBe(403);
    expect(alerts(reply.text)).toContain(TEAM_MESSAGES.onlyCaptain);
    for (const intent of ["renewInvitation", "withdrawTeam", "removePhoto"])
      expect((await who.client.post(`/equipos/${id}`, { intent })).status, intent).toBe(403);
  }
  expect(await state()).toEqual(before);

  const bad = await ana.client.post(`/equipos/${id}`, { ...edit, robot: "r".repeat(61) });
  expect(bad.status).toBe(400);
  expect(alerts(bad.text)).toContain(TEAM_MESSAGES.robotTooLong);
  const taken = await ana.client.post(`/equipos/${id}`, { ...edit, nombre: "los pumas" });
  expect(taken.status).toBe(409);
  expect((await ana.client.post(`/equipos/${id}`, { intent: "nada" })).status).toBe(400);
  expect(
    (await ana.client.post(`/equipos/${id}`, { intent: "removeMember", userId: "x" })).status,
  ).toBe(404);
  expect(await state()).toEqual(before);

  expect((await ana.client.post(`/equipos/${id}`, edit)).status).toBe(302);
  const [saved] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(saved!.name).toBe("Los Nuevos Cóndores");

  // After the deadline: refused, and the page offers no editing.
  await server.db
    .update(competitionCategories)
    .set({ registrationClosesAt: new Date("2020-01-01T00:00:00Z") })
    .where(eq(competitionCategories.id, categoryId));
  const late = await ana.client.post(`/equipos/${id}`, { ...edit, nombre: "Tarde" });
  expect(late.status).toBe(409);
  expect(alerts(late.text)).toContain(TEAM_MESSAGES.closed);
  expect((await ana.client.post(`/equipos/${id}`, { intent: "withdrawTeam" })).status).toBe(409);
  expect((await beto.client.post(`/equipos/${id}`, { intent: "leaveTeam" })).status).toBe(409);
  const caro = await person("Caro Mamani");
  expect((await join(caro, code!)).status).toBe(409);
  expect(text((await ana.client.get(`/equipos/${id}`)).text)).not.toContain("Editar equipo");
});

test("members leave, the captain removes one, and a withdrawal before the deadline frees the place and the name", async () => {
  const { categoryId } = await competition({ capacity: 1 });
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const caro = await person("Caro Mamani");
  await join(beto, code!);
  await join(caro, code!);
  expect((await ana.client.post(`/equipos/${id}`, { intent: "leaveTeam" })).status).toBe(409);
  expect((await beto.client.post(`/equipos/${id}`, { intent: "leaveTeam" })).status).toBe(302);
  expect((await beto.client.post(`/equipos/${id}`, { intent: "leaveTeam" })).status).toBe(403);
  expect(
    (await ana.client.post(`/equipos/${id}`, { intent: "removeMember", userId: caro.user.id }))
      .status,
  ).toBe(302);
  const pumas = await team(beto, categoryId, { nombre: "Los Pumas" });
  expect((await teamRow(pumas.id)).status).toBe("waiting");

  expect((await ana.client.post(`/equipos/${id}`, { intent: "withdrawTeam" })).status).toBe(302);
  const [withdrawn] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(withdrawn!.status).toBe("withdrawn");
  expect(await server.db.select().from(teamMembers).where(eq(teamMembers.teamId, id))).toEqual([]);
  // The place goes to the team waiting; the name is free: the captain may register again (and wait).
  expect((await teamRow(pumas.id)).status).toBe("pending");
  expect((await teamRow((await team(ana, categoryId)).id)).status).toBe("waiting");
});

test("the captain removes a coach who should not be there; the link they used stops working, and nobody else may remove the coach", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  // Someone the link reached confirms as coach first.
  const intruder = await person("Intruso Adulto", "1970-01-01");
  expect((await join(intruder, code!, "coach", { consentimiento: "si" })).status).toBe(302);
  expect(text((await intruder.client.get(`/equipos/${id}`)).text)).toContain("Beto Choque");

  const before = await state();
  const removeCoach = { intent: "removeCoach" };
  for (const who of [beto, intruder, organiserElsewhere, door]) {
    const reply = await who.client.post(`/equipos/${id}`, removeCoach);
    expect(reply.status, who.user.email).toBeGreaterThanOrEqual(400);
    expect(reply.status, who.user.email).toBeLessThan(500);
  }
  expect(await state()).toEqual(before);
  expect(await codeOf(id)).toBe(code);

  expect((await ana.client.post(`/equipos/${id}`, removeCoach)).status).toBe(302);
  const [after] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(after!.coachId).toBeNull();
  expect(after!.coachConfirmedAt).toBeNull();
  // The old link no longer works for them (or anyone); the new one is the captain's to share.
  const fresh = await codeOf(id);
  expect(fresh).not.toBe(code);
  const again = await join(intruder, code!, "coach", { consentimiento: "si" });
  expect(again.status).toBe(404);
  expect(text((await intruder.client.get(`/equipos/${id}`)).text)).not.toContain("Beto Choque");
  // No coach left to remove: said so, nothing changes.
  const none = await ana.client.post(`/equipos/${id}`, removeCoach);
  expect(none.status).toBe(409);
  expect(alerts(none.text).concat(text(none.text))).toEqual(
    expect.arrayContaining([expect.stringContaining(TEAM_MESSAGES.noCoach)]),
  );
  const coach = await person("Carla Entrenadora", "1985-06-15");
  expect((await join(coach, fresh!, "coach", { consentimiento: "si" })).status).toBe(302);
});

test("a rejected team's captain may withdraw it, even after the deadline: its members are free again", async () => {
  const { eventId, categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  const rejected = await organiser.client.post(
    `/admin/eventos/${eventId}/equipos`,
    await shown(server.db, {
      intent: "review",
      teamId: id,
      decision: "rechazar",
      motivo: "Robot fuera de reglamento",
    }),
  );
  expect(rejected.status).toBe(302);
  // Still bound to the category while rejected: a new team is refused.
  expect((await create(beto, categoryId, { nombre: "Los Pumas" })).status).toBe(409);
  // Only the captain withdraws it.
  expect((await beto.client.post(`/equipos/${id}`, { intent: "withdrawTeam" })).status).toBe(403);
  await server.db
    .update(competitionCategories)
    .set({ registrationClosesAt: new Date("2000-01-01T00:00:00Z") })
    .where(eq(competitionCategories.id, categoryId));
  expect((await ana.client.post(`/equipos/${id}`, { intent: "withdrawTeam" })).status).toBe(302);
  expect(await server.db.select().from(teamMembers).where(eq(teamMembers.teamId, id))).toEqual([]);
  const [row] = await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
  expect(row!.status).toBe("withdrawn");
});

test("two people joining at once into a team's last place: one gets it, the other is told the team is full", async () => {
  const { categoryId } = await competition({ maxMembers: 2 });
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const [beto, caro] = await Promise.all([person("Beto Choque"), person("Caro Mamani")]);
  const replies = await Promise.all([join(beto, code!), join(caro, code!)]);
  expect(replies.map((r) => r.status).sort()).toEqual([302, 409]);
  const refused = replies.find((r) => r.status === 409)!;
  expect(alerts(refused.text)).toContain(TEAM_MESSAGES.teamFull);
  expect(await server.db.select().from(teamMembers).where(eq(teamMembers.teamId, id))).toHaveLength(
    2,
  );
});

test("two captains registering at once for a category's last place: one team gets it, the other waits", async () => {
  const { categoryId } = await competition({ capacity: 1 });
  const [ana, beto] = await Promise.all([person("Ana Flores"), person("Beto Choque")]);
  const replies = await Promise.all([
    create(ana, categoryId),
    create(beto, categoryId, { nombre: "Los Pumas" }),
  ]);
  expect(replies.map((r) => r.status)).toEqual([302, 302]);
  const teams = await server.db
    .select({ status: competitionTeams.status })
    .from(competitionTeams)
    .where(eq(competitionTeams.categoryId, categoryId));
  expect(teams.map((t) => t.status).sort()).toEqual(["pending", "waiting"]);
});

test("a member the captain removes cannot come back with the link they joined with", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  expect(
    (await ana.client.post(`/equipos/${id}`, { intent: "removeMember", userId: beto.user.id }))
      .status,
  ).toBe(302);
  expect((await join(beto, code!)).status).toBe(404);
  expect(await server.db.select().from(teamMembers).where(eq(teamMembers.teamId, id))).toHaveLength(
    1,
  );
  expect((await join(beto, (await codeOf(id))!)).status).toBe(302);
});

test("a NUL character in a team's fields or a rejection's reason is refused in Spanish where the form is read, never a 500", async () => {
  const { eventId, categoryId } = await competition();
  const ana = await person("Ana Flores");
  const before = await state();
  for (const field of ["nombre", "colegio", "ciudad", "robot"]) {
    const reply = await create(ana, categoryId, { [field]: "Los\u0000Cóndores" });
    expect(reply.status, field).toBe(400);
    expect(reply.text, field).toContain(KERNEL_MESSAGES.controlCharacter);
  }
  expect(await state()).toEqual(before);
  const { id } = await team(ana, categoryId);
  const edit = await ana.client.post(`/equipos/${id}`, {
    intent: "updateTeam",
    ...TEAM,
    ciudad: "La\u0000Paz",
  });
  expect(edit.status).toBe(400);
  const beforeReview = await state();
  const review = await organiser.client.post(
    `/admin/eventos/${eventId}/equipos`,
    await shown(server.db, {
      intent: "review",
      teamId: id,
      decision: "rechazar",
      motivo: "Falta\u0000algo",
    }),
  );
  expect(review.status).toBe(400);
  expect(review.text).toContain(KERNEL_MESSAGES.controlCharacter);
  expect(await state()).toEqual(beforeReview);
});

test("organisers and admins see every team with e-mails, approve or reject with a reason (audited) and download a CSV safe from formulas; everyone else is refused", async () => {
  const { eventId, categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId, { nombre: '=HYPERLINK("x")' });
  const list = `/admin/eventos/${eventId}/equipos`;

  // Not approved before its coach confirms (the adults' consent, where the category needs one).
  const early = await state();
  const tooSoon = await organiser.client.post(
    list,
    await shown(server.db, {
      intent: "review",
      teamId: id,
      decision: "aprobar",
    }),
  );
  expect(tooSoon.status).toBe(409);
  expect(alerts(tooSoon.text)).toContain(TEAM_MESSAGES.approveNeedsCoach);
  expect(await state()).toEqual(early);
  const coach = await person("Carla Entrenadora", "1985-06-15");
  expect((await join(coach, code!, "coach", { consentimiento: "si" })).status).toBe(302);

  const visitor = await new BrowserClient(server.url).get(list);
  expect(visitor.status).toBe(302);
  expect(pathOf(visitor.location)).toMatch(/^\/login/);
  const stranger = await person("Zoe Extraña");
  const before = await state();
  for (const who of [ana, stranger, door, organiserElsewhere]) {
    for (const target of [list, `${list}.csv`]) {
      const reply = await who.client.get(target);
      expect([302, 403], `${who.user.email} ${target}`).toContain(reply.status);
      if (reply.status === 302) expect(pathOf(reply.location)).not.toBe(target);
    }
    const post = await who.client.post(
      list,
      await shown(server.db, {
        intent: "review",
        teamId: id,
        decision: "aprobar",
      }),
    );
    expect(post.status, who.user.email).toBe(403);
  }
  expect(await state()).toEqual(before);

  for (const who of [organiser, admin]) {
    const page = text((await who.client.get(list)).text);
    expect(page).toContain("Ana Flores");
    expect(page).toContain(ana.user.email);
  }
  const bad: [Record<string, string | string[]>, number, string][] = [
    [{ intent: "review", teamId: id, decision: "rechazar" }, 400, TEAM_MESSAGES.reasonMissing],
    [
      { intent: "review", teamId: id, decision: "rechazar", motivo: "m".repeat(501) },
      400,
      TEAM_MESSAGES.reasonTooLong,
    ],
    [{ intent: "review", teamId: id, decision: "quizas" }, 400, TEAM_MESSAGES.decision],
    [{ intent: "review", teamId: [id, id], decision: "aprobar" }, 400, TEAM_MESSAGES.malformed],
    [
      { intent: "review", teamId: "no-es-un-id", decision: "aprobar" },
      404,
      TEAM_MESSAGES.teamNotFound,
    ],
    [
      { intent: "review", teamId: randomUUID(), decision: "aprobar" },
      404,
      TEAM_MESSAGES.teamNotFound,
    ],
  ];
  for (const [fields, status, message] of bad) {
    const reply = await organiser.client.post(list, await shown(server.db, fields));
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    expect(alerts(reply.text)).toContain(message);
  }
  // A team of another event cannot be decided from this one's page.
  const otherEvent = await competition();
  const elsewhere = await team(await person("Otra Persona"), otherEvent.categoryId);
  const withOther = await state();
  expect(
    (
      await organiser.client.post(
        list,
        await shown(server.db, {
          intent: "review",
          teamId: elsewhere.id,
          decision: "aprobar",
        }),
      )
    ).status,
  ).toBe(404);
  expect(await state()).toEqual(withOther);

  expect(
    (
      await organiser.client.post(
        list,
        await shown(server.db, {
          intent: "review",
          teamId: id,
          decision: "rechazar",
          motivo: "Falta el robot",
        }),
      )
    ).status,
  ).toBe(302);
  expect(
    (
      await admin.client.post(
        list,
        await shown(server.db, { intent: "review", teamId: id, decision: "aprobar" }),
      )
    ).status,
  ).toBe(302);
  const entries = await server.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.itemId, eventId), sql`${auditLog.action} like 'competition.team.%'`))
    .orderBy(asc(auditLog.at));
  expect(entries.map((e) => [e.action, e.role])).toEqual([
    ["competition.team.reject", "organiser"],
    ["competition.team.approve", "admin"],
  ]);
  expect(entries[0]!.summary).toContain("Falta el robot");

  const csv = await organiser.client.get(`${list}.csv`);
  expect(csv.status).toBe(200);
  expect(csv.headers.get("Content-Type")).toContain("text/csv");
  expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);
  expect(csv.text).toContain(ana.user.email);
  expect(csv.text).toContain('"capitán"');
});

test("a category with teams cannot be deleted: the editor says why; the event's deletion takes its teams", async () => {
  const { eventId, categoryId } = await competition();
  const ana = await person("Ana Flores");
  await team(ana, categoryId);
  const reply = await organiser.client.post(`/admin/eventos/${eventId}/categorias`, {
    intent: "deleteCategory",
    categoryId,
  });
  expect(reply.status).toBe(409);
  expect(alerts(reply.text)).toContain(TEAM_MESSAGES.categoryHasTeams);
  expect(
    await server.db
      .select()
      .from(competitionCategories)
      .where(eq(competitionCategories.id, categoryId)),
  ).toHaveLength(1);
  await deleteEvent(server.db, admin.user, eventId);
  expect(
    await server.db.select().from(competitionTeams).where(eq(competitionTeams.eventId, eventId)),
  ).toEqual([]);
});

test("an admin merges a duplicate school (audited); merging into itself, unknown ids and non-admins are refused", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id } = await team(ana, categoryId, {
    colegio: `San Calixto ${randomUUID().slice(0, 6)}`,
  });
  const [row] = await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
  const [into] = await server.db
    .insert(schools)
    .values({ name: `Colegio San Calixto ${randomUUID().slice(0, 6)}` })
    .returning();
  const from = row!.schoolId;

  const before = await state();
  const visitor = await new BrowserClient(server.url).post("/admin/escuelas", {
    intent: "merge",
    desde: from,
    en: into!.id,
  });
  expect(visitor.status).toBe(302);
  for (const who of [ana, organiser, door]) {
    const reply = await who.client.post("/admin/escuelas", {
      intent: "merge",
      desde: from,
      en: into!.id,
    });
    expect(reply.status, who.user.email).toBe(403);
  }
  const bad: [Record<string, string | string[]>, number, string][] = [
    [{ intent: "merge", desde: from, en: from }, 400, TEAM_MESSAGES.mergeSame],
    [{ intent: "merge", desde: from, en: randomUUID() }, 404, TEAM_MESSAGES.schoolNotFound],
    [{ intent: "merge", desde: "x", en: into!.id }, 404, TEAM_MESSAGES.schoolNotFound],
    [{ intent: "merge", desde: [from, from], en: into!.id }, 400, TEAM_MESSAGES.malformed],
    [{ intent: "merge", en: into!.id }, 400, TEAM_MESSAGES.malformed],
  ];
  for (const [fields, status, message] of bad) {
    const reply = await admin.client.post("/admin/escuelas", fields);
    expect(reply.status, JSON.stringify(fields)).toBe(status);
    expect(alerts(reply.text)).toContain(message);
  }
  expect(await state()).toEqual(before);

  expect((await admin.client.get("/admin/escuelas")).status).toBe(200);
  const merged = await admin.client.post("/admin/escuelas", {
    intent: "merge",
    desde: from,
    en: into!.id,
  });
  expect(merged.status).toBe(302);
  const [moved] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(moved!.schoolId).toBe(into!.id);
  expect(await server.db.select().from(schools).where(eq(schools.id, from))).toEqual([]);
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, "competition.school.merge"));
  expect(entry).toMatchObject({ role: "admin", itemId: into!.id });
});

test("the robot's photo: the captain uploads one image through the plain form; others are refused", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .png()
    .toBuffer();
  const send = (who: Person) => {
    const form = new FormData();
    form.append("foto", new Blob([new Uint8Array(png)], { type: "image/png" }), "robot.png");
    return who.client.request("POST", `/equipos/${id}`, { body: form });
  };
  const refused = await send(beto);
  expect(refused.status).toBe(403);
  expect(alerts(refused.text)).toContain(TEAM_MESSAGES.onlyCaptain);
  const sent = await send(ana);
  expect(sent.status).toBe(302);
  const [row] = await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id));
  expect(row!.robotPhoto).toMatch(/^\/imagenes\/[0-9a-f]{32}-[0-9]+\.webp$/);
  const empty = await ana.client.request("POST", `/equipos/${id}`, { body: new FormData() });
  expect(empty.status).toBeGreaterThanOrEqual(400);
  expect(empty.status).toBeLessThan(500);
  expect((await ana.client.post(`/equipos/${id}`, { intent: "removePhoto" })).status).toBe(302);
});

test("a member's data download carries their teams; deleting a captain's account hands the team to its oldest member, or withdraws it when none is left; a coach's deletion leaves the team without coach", async () => {
  const { categoryId } = await competition();
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const caro = await person("Caro Mamani");
  await join(beto, code!);
  await join(caro, code!);
  const coach = await person("Carla Entrenadora", "1985-06-15");
  await join(coach, code!, "coach", { consentimiento: "si" });
  const solo = await person("Solo Capitán");
  const alone = await team(solo, categoryId, { nombre: "Uno solo" });

  const data = JSON.parse((await ana.client.get("/profile/datos")).text) as MemberData;
  expect(data.equipos).toEqual([
    expect.objectContaining({
      equipo: "Los Cóndores",
      capitan: true,
      entrenador: false,
      colegio: "Colegio San Calixto",
    }),
  ]);
  const coachData = JSON.parse((await coach.client.get("/profile/datos")).text) as MemberData;
  expect(coachData.equipos).toEqual([
    expect.objectContaining({ equipo: "Los Cóndores", entrenador: true }),
  ]);

  const erase = (who: Person) =>
    who.client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" });
  expect((await erase(ana)).status).toBe(302);
  const [handed] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(handed!.captainId).toBe(beto.user.id);
  expect(handed!.status).toBe("pending");
  expect((await erase(coach)).status).toBe(302);
  const [coachless] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, id));
  expect(coachless!.coachId).toBeNull();
  expect(coachless!.coachConfirmedAt).toBeNull();

  expect((await erase(solo)).status).toBe(302);
  const [gone] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, alone.id));
  expect(gone!.status).toBe("withdrawn");
  expect(gone!.captainId).toBeNull();
});

test("an organiser who deletes their account leaves their decisions on teams under 'cuenta eliminada', not their name", async () => {
  const { eventId, categoryId } = await competition();
  const reviewer = await person("Rita Revisora", "1980-01-01");
  await grantRole(server.db, admin.user, { userId: reviewer.user.id, kind: "organiser", eventId });
  const { id } = await team(await person("Ana Flores"), categoryId);
  const rejected = await reviewer.client.post(
    `/admin/eventos/${eventId}/equipos`,
    await shown(server.db, {
      intent: "review",
      teamId: id,
      decision: "rechazar",
      motivo: "Falta el robot",
    }),
  );
  expect(rejected.status).toBe(302);
  const read = async () =>
    (await server.db.select().from(competitionTeams).where(eq(competitionTeams.id, id)))[0]!;
  expect((await read()).reviewedByName).toBe("Rita Revisora");
  const erased = await reviewer.client.post("/profile", {
    intent: "deleteAccount",
    confirmar: "eliminar",
  });
  expect(erased.status).toBe(302);
  const after = await read();
  expect(after.reviewedByName).toBe("cuenta eliminada");
  expect(after.reviewedBy).toBeNull();
  expect(after.status).toBe("rejected");
});

test("a team of a category with a fee is complete only once a team payment is confirmed or waived", async () => {
  const { eventId, categoryId } = await competition({
    feeCents: 5000,
    minMembers: 1,
    coachRequired: false,
  });
  const ana = await person("Ana Flores");
  const { id } = await team(ana, categoryId);
  const before = text((await ana.client.get(`/equipos/${id}`)).text);
  expect(before).toContain("Para completar el equipo");
  expect(before).toContain("Cuota de Bs 50");
  await server.db.insert(payments).values({
    subjectKind: "team",
    teamId: id,
    eventId,
    userId: ana.user.id,
    amountCents: 5000,
    status: "confirmed",
  });
  expect(text((await ana.client.get(`/equipos/${id}`)).text)).toContain("Equipo completo");
});

test("a fee holds the team's place like a person's: the captain pays on the payment page, a treasurer confirms; a withdrawal marks it for a refund; an unpaid hold that runs out withdraws the team", async () => {
  const { eventId, categoryId } = await competition({
    feeCents: 5000,
    minMembers: 1,
    coachRequired: false,
    capacity: 1,
  });
  const ana = await person("Ana Flores");
  const { id, code } = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  await join(beto, code!);
  const [held] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.teamId, id), eq(payments.subjectKind, "team")));
  expect(held).toMatchObject({
    userId: ana.user.id,
    amountCents: 5000,
    status: "pending",
    eventId,
  });
  expect(held!.heldUntil!.getTime()).toBeGreaterThan(Date.now() + 47 * 3_600_000);
  const [mail] = await server.db
    .select()
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.kind, "paymentPending"), sql`${mailOutbox.data}::text like ${`%${id}%`}`),
    );
  const composed = composeMail(
    (await getQueuedMail(server.db, mail!.id))!,
    mailSite(server.config),
    MAIL_DRAFTS,
  );
  expect(composed.subject).toContain("Cuota del equipo «Los Cóndores»");
  expect(String(composed.text)).toContain(`/detalles/${eventId}/pago?equipo=${id}`);
  expect(String(composed.text)).not.toContain("tu plaza");

  const payPage = `/detalles/${eventId}/pago?equipo=${id}`;
  expect(text((await ana.client.get(`/equipos/${id}`)).text)).toContain("pendiente de pago");
  const page = await ana.client.get(payPage);
  expect(page.status).toBe(200);
  expect(text(page.text)).toContain("Cuota del equipo «Los Cóndores»");
  expect(page.text).toContain(held!.reference.slice(0, 4));
  // Only the payer (the captain): a member, a stranger and a malformed team are not found.
  expect((await beto.client.get(payPage)).status).toBe(404);
  expect((await ana.client.get(`/detalles/${eventId}/pago?equipo=no-es-un-id`)).status).toBe(404);
  expect((await ana.client.get(`/detalles/${eventId}/pago?equipo=${randomUUID()}`)).status).toBe(
    404,
  );
  // Her own registration's page is another subject: she has none.
  expect((await ana.client.get(`/detalles/${eventId}/pago`)).status).toBe(404);

  const sent = await ana.client.post(payPage, {
    intent: "transaction",
    transactionNumber: "TRX-123456",
  });
  expect(sent.status).toBe(302);
  expect(pathOf(sent.location)).toBe(payPage);
  await decidePayment(server.db, admin.user, held!.id, "confirm");
  expect(text((await ana.client.get(`/equipos/${id}`)).text)).toContain("Equipo completo");
  const queue = text((await admin.client.get("/tesoreria/pagos?ver=todos")).text);
  expect(queue).toContain("equipo «Los Cóndores»");

  // The captain's account goes: the team and its payment pass to Beto.
  expect(
    (await ana.client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" })).status,
  ).toBe(302);
  const [handed] = await server.db.select().from(payments).where(eq(payments.id, held!.id));
  expect(handed).toMatchObject({ userId: beto.user.id, status: "confirmed" });
  // Withdrawn before the deadline after paying: the place is free and a refund is due.
  expect((await beto.client.post(`/equipos/${id}`, { intent: "withdrawTeam" })).status).toBe(302);
  const [left] = await server.db.select().from(payments).where(eq(payments.id, held!.id));
  expect(left!.status).toBe("confirmed");
  expect(left!.leftAt).not.toBeNull();

  // A hold nobody pays runs out: the team is withdrawn and its place is free again.
  const caro = await person("Caro Mamani");
  const late = await team(caro, categoryId, { nombre: "Los Pumas" });
  const dani = await person("Dani Rojas");
  const vicunas = await team(dani, categoryId, { nombre: "Las Vicuñas" });
  expect((await teamRow(vicunas.id)).status).toBe("waiting");
  // A team waiting holds no place and owes nothing yet.
  expect(await server.db.select().from(payments).where(eq(payments.teamId, vicunas.id))).toEqual(
    [],
  );
  const later = new Date(Date.now() + 49 * 3_600_000);
  await expireHolds(server.db, later);
  const [expired] = await server.db
    .select()
    .from(competitionTeams)
    .where(eq(competitionTeams.id, late.id));
  expect(expired!.status).toBe("withdrawn");
  const [gone] = await server.db
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.teamId, late.id));
  expect(gone!.status).toBe("expired");
  // The place goes to the team waiting, whose captain now holds it from then, and is told how to pay.
  expect((await teamRow(vicunas.id)).status).toBe("pending");
  const [heldAgain] = await server.db
    .select()
    .from(payments)
    .where(eq(payments.teamId, vicunas.id));
  expect(heldAgain).toMatchObject({ userId: dani.user.id, status: "pending", amountCents: 5000 });
  expect(heldAgain!.heldUntil!.getTime()).toBeGreaterThan(later.getTime() + 47 * 3_600_000);
  const [placeMail] = await server.db
    .select()
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.kind, "paymentPending"),
        eq(mailOutbox.userId, dani.user.id),
        sql`${mailOutbox.data}::text like ${`%${vicunas.id}%`}`,
      ),
    );
  const told = composeMail(
    (await getQueuedMail(server.db, placeMail!.id))!,
    mailSite(server.config),
    MAIL_DRAFTS,
  );
  expect(told.subject).toContain("¡El equipo «Las Vicuñas» tiene lugar!");
  expect(String(told.text)).toContain("lista de espera");
  expect(String(told.text)).toContain(`/detalles/${eventId}/pago?equipo=${vicunas.id}`);
});

test("a full category's waiting list: teams wait in order, the pages say where, organisers approve only teams with a place; a rejection, a withdrawal or more places give the first team waiting its place and its captain is told", async () => {
  const { eventId, categoryId } = await competition({ capacity: 1, coachRequired: false });
  const ana = await person("Ana Flores");
  const first = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const caro = await person("Caro Mamani");
  const dani = await person("Dani Rojas");
  // The form says the team will wait, and the reply says it did.
  const form = text((await beto.client.get(`/equipos/nuevo?categoria=${categoryId}`)).text);
  expect(form).toContain("tu equipo quedará en la lista de espera");
  expect(form).toContain("Inscribir en la lista de espera");
  const pumasReply = await create(beto, categoryId, { nombre: "Los Pumas" });
  expect(pumasReply.status).toBe(302);
  const pumas = pathOf(pumasReply.location)!.split("/").pop()!;
  expect(text((await beto.client.get(`/equipos/${pumas}`)).text)).toContain(
    "Equipo inscrito en la lista de espera",
  );
  const vicunas = (await team(caro, categoryId, { nombre: "Las Vicuñas" })).id;
  expect([(await teamRow(pumas)).status, (await teamRow(vicunas)).status]).toEqual([
    "waiting",
    "waiting",
  ]);

  // Anyone reads the list, in order, and where a team stands on it.
  const visitor = new BrowserClient(server.url);
  const page = text((await visitor.get(`/detalles/${eventId}`)).text);
  expect(page).toContain("Lista de espera (2)");
  expect(page.indexOf("Los Pumas")).toBeLessThan(page.indexOf("Las Vicuñas"));
  expect(page).toContain("Sin lugares: 2 equipos esperan");
  expect(page).toContain("Anotar un equipo en la lista de espera");
  expect(text((await visitor.get(`/equipos/${vicunas}`)).text)).toContain(
    "El equipo es el 2.º de la lista de espera.",
  );
  expect(text((await beto.client.get(`/equipos/${pumas}`)).text)).toContain(
    "El equipo es el primero de la lista de espera",
  );
  // The team waiting gathers its members meanwhile.
  expect((await join(dani, (await codeOf(pumas))!)).status).toBe(302);

  // Organisers cannot approve a team that has no place; they may reject it.
  const review = async (teamId: string, decision: string, motivo = "") =>
    organiser.client.post(
      `/admin/eventos/${eventId}/equipos`,
      await shown(server.db, {
        intent: "review",
        teamId,
        decision,
        motivo,
      }),
    );
  const refused = await review(pumas, "aprobar");
  expect(refused.status).toBe(409);
  expect(alerts(refused.text)).toContain(TEAM_MESSAGES.waitingNotApproved);
  expect((await teamRow(pumas)).status).toBe("waiting");

  // The first team is rejected: its place goes to the first waiting, whose captain is told.
  expect((await review(first.id, "rechazar", "Robot fuera de reglamento")).status).toBe(302);
  expect((await teamRow(pumas)).status).toBe("pending");
  expect((await teamRow(vicunas)).status).toBe("waiting");
  const [mail] = await server.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, "teamPlace"), eq(mailOutbox.userId, beto.user.id)));
  const told = composeMail(
    (await getQueuedMail(server.db, mail!.id))!,
    mailSite(server.config),
    MAIL_DRAFTS,
  );
  expect(told.subject).toContain("¡Tu equipo tiene lugar!");
  expect(String(told.text)).toContain("«Los Pumas»");
  expect(String(told.text)).toContain("«Robot Sumo»");
  expect(String(told.text)).toContain(`/equipos/${pumas}`);
  expect((await review(pumas, "aprobar")).status).toBe(302);
  expect((await teamRow(pumas)).status).toBe("approved");
  // A rejected team approved again needs a free place.
  expect(alerts((await review(first.id, "aprobar")).text)).toContain(TEAM_MESSAGES.full);

  // More places: the category's editor raises its capacity, and the next team waiting gets one.
  const [category] = await server.db
    .select()
    .from(competitionCategories)
    .where(eq(competitionCategories.id, categoryId));
  const edited = await admin.client.post(`/admin/eventos/${eventId}/categorias`, {
    intent: "updateCategory",
    categoryId,
    nombre: category!.name,
    nivel: category!.level,
    minimo: String(category!.minMembers),
    maximo: String(category!.maxMembers),
    entrenador: "",
    reglas: "",
    peso: "",
    tamano: "",
    cupo: "2",
    cuota: "0",
    fechaCierre: "2099-11-30",
    horaCierre: "18:00",
    formato: category!.format,
  });
  expect(edited.status, alerts(edited.text).join()).toBe(302);
  expect((await teamRow(vicunas)).status).toBe("pending");
});

test("a team waiting leaves the list at its captain's word; once the event has started, a freed place goes to nobody", async () => {
  const { eventId, categoryId } = await competition({ capacity: 1, coachRequired: false });
  const ana = await person("Ana Flores");
  const first = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const caro = await person("Caro Mamani");
  const pumas = (await team(beto, categoryId, { nombre: "Los Pumas" })).id;
  const vicunas = (await team(caro, categoryId, { nombre: "Las Vicuñas" })).id;
  const leaving = text((await beto.client.get(`/equipos/${pumas}?retirar=1`)).text);
  expect(leaving).toContain("Salir de la lista de espera");
  expect((await beto.client.post(`/equipos/${pumas}`, { intent: "withdrawTeam" })).status).toBe(
    302,
  );
  expect((await teamRow(pumas)).status).toBe("withdrawn");
  expect((await teamRow(vicunas)).status).toBe("waiting");
  expect(text((await caro.client.get(`/equipos/${vicunas}`)).text)).toContain(
    "El equipo es el primero de la lista de espera",
  );

  // The competition is under way: a withdrawal's place is not handed out any more.
  await server.db
    .update(events)
    .set({ startsAt: new Date(Date.now() - 3_600_000) })
    .where(eq(events.id, eventId));
  expect((await ana.client.post(`/equipos/${first.id}`, { intent: "withdrawTeam" })).status).toBe(
    302,
  );
  expect((await teamRow(vicunas)).status).toBe("waiting");
});

test("a fee that was paid stays when its payer deletes their account, without them or their receipt, and its refund can be recorded; a fee not paid goes with them", async () => {
  const { categoryId } = await competition({
    feeCents: 5000,
    minMembers: 1,
    coachRequired: false,
    capacity: 5,
  });
  const ana = await person("Ana Flores");
  const paid = await team(ana, categoryId);
  const beto = await person("Beto Choque");
  const unpaid = await team(beto, categoryId, { nombre: "Los Pumas" });
  const [fee] = await server.db.select().from(payments).where(eq(payments.teamId, paid.id));
  await server.db
    .update(payments)
    .set({ receiptFile: `${"a".repeat(32)}.png` })
    .where(eq(payments.id, fee!.id));
  await decidePayment(server.db, admin.user, fee!.id, "confirm");

  for (const p of [ana, beto])
    expect(
      (await p.client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" })).status,
    ).toBe(302);
  // Each was alone in their team: the teams are withdrawn.
  expect((await teamRow(paid.id)).status).toBe("withdrawn");
  expect((await teamRow(unpaid.id)).status).toBe("withdrawn");
  const [kept] = await server.db.select().from(payments).where(eq(payments.id, fee!.id));
  expect(kept).toMatchObject({ userId: null, status: "confirmed", receiptFile: null });
  expect(kept!.leftAt).not.toBeNull();
  expect(await server.db.select().from(payments).where(eq(payments.teamId, unpaid.id))).toEqual([]);
  const queue = text((await admin.client.get("/tesoreria/pagos?ver=reembolsos")).text);
  const item = queue
    .split('<li class="card payment-queue-item">')
    .map((card) => card.slice(0, card.indexOf("</li>")))
    .find((card) => card.includes(fee!.reference));
  expect(item).toContain("cuenta eliminada");
  expect(item).toContain("equipo «Los Cóndores»");
  expect(item).not.toContain("Ana Flores");
  await recordRefund(server.db, admin.user, fee!.id, "Transferencia 123");
  const [refunded] = await server.db.select().from(payments).where(eq(payments.id, fee!.id));
  expect(refunded).toMatchObject({ status: "refunded", userId: null });
});
