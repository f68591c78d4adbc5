// Issue 38, point 4 (decision 055): at the door of a competition. Competitors carry a pass
// derived from their approved team and are checked in with it (a participation that takes no
// seat); a team is checked in when its members are; door staff and organisers record robots'
// inspections, passed or failed with notes, until the category starts; only approved teams,
// checked in, with a passed robot compete. Every refusal is a Spanish message with nothing changed.
import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  auditLog,
  competitionCategories,
  competitionTeams,
  events,
  participations,
  schools,
  teamInspections,
  teamMembers,
  users,
  type User,
} from "~/db/schema.server";
import { checkIn, checkInToken, listCheckIn } from "~/attendance/check-in.server";
import { ATTENDANCE_MESSAGES } from "~/attendance/messages";
import { loadMyPasses } from "~/attendance/my-passes.server";
import { parseCategory } from "~/competitions/categories.server";
import { CATEGORY_MESSAGES } from "~/competitions/categories";
import { INSPECTION_MESSAGES } from "~/competitions/door";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import {
  competingTeams,
  doorBoard,
  recordInspection,
  teamAtDoor,
  teamCompetes,
} from "~/competitions/door.server";
import { teamsOfParticipants } from "~/competitions/team-hooks.server";
import { countParticipants } from "~/events/seats.server";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { expireHolds } from "~/hold-expiry.server";
import { grantRole } from "~/members/roles.server";
import { NotAllowedError } from "~/kernel/permissions";
import type { MemberData } from "~/member-data.server";
import { BrowserClient } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { createAdmin, createMember, createTestEvent, openForCheckIn } from "../helpers/events";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";

let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
const SECRET = TEST_SESSION_SECRET;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&quot;", '"');
/** What a person reads: the text without its tags. */
const words = (html: string) => text(html).replace(/<[^>]*>/g, "");

async function person(name: string): Promise<Person> {
  const p = await createMember(server, `${randomUUID()}@example.com`, name);
  await server.db.update(users).set({ nombreCompleto: name }).where(eq(users.id, p.user.id));
  return { ...p, user: { ...p.user, nombreCompleto: name } };
}

/**
 * A competition whose door is open (its one session starts in half an hour), its organiser and
 * door staff, door staff of another event, and one category (starting with the event unless told).
 */
async function competition(category: Partial<typeof competitionCategories.$inferInsert> = {}) {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Clash Robotics ${randomUUID().slice(0, 4)}`,
    capacity: "2",
  });
  await openForCheckIn(server.db, event.id);
  const elsewhere = await createTestEvent(server.db, admin.user, { nombreEvento: "Otro evento" });
  await openForCheckIn(server.db, elsewhere.id);
  const organiser = await person("Olga Organiza");
  const door = await person("Pedro Puerta");
  const doorElsewhere = await person("Otra Puerta");
  await grantRole(server.db, admin.user, {
    userId: organiser.user.id,
    kind: "organiser",
    eventId: event.id,
  });
  await grantRole(server.db, admin.user, { userId: door.user.id, kind: "door", eventId: event.id });
  await grantRole(server.db, admin.user, {
    userId: doorElsewhere.user.id,
    kind: "door",
    eventId: elsewhere.id,
  });
  const [made] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: event.id,
      position: 1,
      name: "Robot Sumo",
      level: "universidad",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date(Date.now() - 3_600_000),
      format: "llaves",
      ...category,
    })
    .returning({ id: competitionCategories.id });
  const grants = async (p: Person) => ({
    ...p.user,
    grants: [
      { kind: "organiser" as const, eventId: event.id },
      { kind: "door" as const, eventId: event.id },
      { kind: "door" as const, eventId: elsewhere.id },
    ].filter(
      (g) =>
        (p === organiser && g.kind === "organiser") ||
        (p === door && g.kind === "door" && g.eventId === event.id) ||
        (p === doorElsewhere && g.kind === "door" && g.eventId === elsewhere.id),
    ),
  });
  return {
    eventId: event.id,
    elsewhereId: elsewhere.id,
    categoryId: made!.id,
    organiser: await grants(organiser),
    organiserPerson: organiser,
    door: await grants(door),
    doorPerson: door,
    doorElsewhere: await grants(doorElsewhere),
    doorElsewherePerson: doorElsewhere,
  };
}

/** A team in `status` with these members (the first is captain) and, maybe, a confirmed coach. */
async function team(
  c: { eventId: string; categoryId: string },
  members: Person[],
  options: { status?: string; coach?: Person; name?: string } = {},
) {
  const [school] = await server.db
    .insert(schools)
    .values({ name: `Colegio ${randomUUID()}` })
    .returning({ id: schools.id });
  const [made] = await server.db
    .insert(competitionTeams)
    .values({
      eventId: c.eventId,
      categoryId: c.categoryId,
      name: options.name ?? `Cóndores ${randomUUID().slice(0, 4)}`,
      schoolId: school!.id,
      city: "La Paz",
      robotName: "Illimani",
      captainId: members[0]?.user.id ?? null,
      coachId: options.coach?.user.id ?? null,
      coachConfirmedAt: options.coach ? new Date() : null,
      status: options.status ?? "approved",
    })
    .returning({ id: competitionTeams.id });
  for (const m of members)
    await server.db
      .insert(teamMembers)
      .values({ teamId: made!.id, userId: m.user.id, categoryId: c.categoryId });
  return made!.id;
}

const scan = (eventId: string, p: Person, by: Parameters<typeof checkIn>[2] = admin.user) =>
  checkIn(server.db, SECRET, by, eventId, { token: checkInToken(SECRET, eventId, p.user.id) });

const passes = (p: Person) =>
  loadMyPasses(server.db, p.user, {
    now: new Date(),
    secret: SECRET,
    publicUrl: server.config.publicUrl,
  });

async function inspections(teamId?: string) {
  return server.db
    .select()
    .from(teamInspections)
    .where(teamId ? eq(teamInspections.teamId, teamId) : undefined)
    .orderBy(asc(teamInspections.createdAt));
}

async function auditCount() {
  return (await server.db.select({ n: count() }).from(auditLog))[0]!.n;
}

const inspect = (
  actor: Parameters<typeof recordInspection>[1],
  eventId: string,
  teamId: string,
  result: string,
  notes = "",
  now = new Date(),
) => recordInspection(server.db, actor, eventId, teamId, { result, notes }, now);

test("a member of an approved team has a pass without registering: 'Mis entradas' shows it, the door's list holds it, and the check-in takes no audience seat", async () => {
  const c = await competition();
  const ana = await person("Ana Quispe");
  const teamId = await team(c, [ana], { name: "Los Cóndores" });
  const mine = await passes(ana);
  const pass = mine.passes.find((p) => p.eventId === c.eventId);
  expect(pass?.teams).toEqual(["Los Cóndores"]);
  expect(pass?.pass?.valid && pass.pass.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  const list = await listCheckIn(server.db, SECRET, c.door, c.eventId);
  const entry = list!.participants.find((p) => p.userId === ana.user.id);
  expect(entry?.token).toBe(checkInToken(SECRET, c.eventId, ana.user.id));
  expect(entry?.checkedInAt).toBeNull();

  // Two audience members fill the event's two seats; the competitor's check-in takes none.
  const [p1, p2, p3] = [await person("Uno"), await person("Dos"), await person("Tres")];
  expect(await joinEvent(server.db, p1.user, c.eventId)).toBe("joined");
  const result = await scan(c.eventId, ana, c.door);
  expect(result.outcome).toBe("checkedIn");
  const [row] = await server.db
    .select()
    .from(participations)
    .where(and(eq(participations.eventId, c.eventId), eq(participations.userId, ana.user.id)));
  expect(row?.seat).toBe(false);
  expect(row?.checkedInAt).not.toBeNull();
  expect(await countParticipants(server.db, c.eventId)).toBe(1);
  expect(await joinEvent(server.db, p2.user, c.eventId)).toBe("joined");
  expect(await joinEvent(server.db, p3.user, c.eventId)).toBe("waiting");
  // A second scan says she was in already; her team's page says so too.
  expect((await scan(c.eventId, ana, c.door)).outcome).toBe("already");
  expect((await teamAtDoor(server.db, teamId))?.teamCheckedIn).toBe(true);
});

test("the typed code of a competitor works at the door as a participant's does", async () => {
  const c = await competition();
  const beto = await person("Beto Mamani");
  await team(c, [beto]);
  const pass = (await passes(beto)).passes.find((p) => p.eventId === c.eventId)!.pass!;
  const code = pass.valid ? pass.code : "";
  const result = await checkIn(server.db, SECRET, c.door, c.eventId, { code });
  expect(result).toMatchObject({ outcome: "checkedIn", userId: beto.user.id });
});

test("a pass goes with the team: members of a pending, rejected or withdrawn team, one who left and an unconfirmed coach have none; an audience registration stays", async () => {
  const c = await competition();
  const pending = await person("Pía Pendiente");
  const rejected = await person("Raúl Rechazado");
  const withdrawn = await person("Wara Retirada");
  const left = await person("Lalo Salió");
  const coach = await person("Coco Coach");
  const audience = await person("Ada Público");
  await team(c, [pending], { status: "pending" });
  await team(c, [rejected], { status: "rejected" });
  await team(c, [withdrawn, audience], { status: "withdrawn" });
  const stays = await team(c, [left], { status: "approved" });
  await server.db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, stays), eq(teamMembers.userId, left.user.id)));
  // A coach who has not confirmed is no competitor.
  const coached = await team(c, [await person("Integrante")]);
  await server.db
    .update(competitionTeams)
    .set({ coachId: coach.user.id, coachConfirmedAt: null })
    .where(eq(competitionTeams.id, coached));
  expect(await joinEvent(server.db, audience.user, c.eventId)).toBe("joined");

  for (const p of [pending, rejected, withdrawn, left, coach]) {
    expect(
      (await passes(p)).passes.some((x) => x.eventId === c.eventId),
      p.user.email,
    ).toBe(false);
    await expect(scan(c.eventId, p, c.door), p.user.email).rejects.toMatchObject({
      status: 404,
      message: ATTENDANCE_MESSAGES.checkInNotParticipant,
    });
  }
  const theirs = (await passes(audience)).passes.find((x) => x.eventId === c.eventId);
  expect(theirs?.teams).toEqual([]);
  expect((await scan(c.eventId, audience, c.door)).outcome).toBe("checkedIn");
  const [row] = await server.db
    .select({ seat: participations.seat })
    .from(participations)
    .where(and(eq(participations.eventId, c.eventId), eq(participations.userId, audience.user.id)));
  expect(row?.seat).toBe(true);
});

test("a competitor checked in who then joins the audience takes a seat with the same participation", async () => {
  const c = await competition();
  const ana = await person("Ana Quispe");
  await team(c, [ana]);
  await scan(c.eventId, ana, c.door);
  expect(await countParticipants(server.db, c.eventId)).toBe(0);
  expect(await joinEvent(server.db, ana.user, c.eventId)).toBe("joined");
  expect(await countParticipants(server.db, c.eventId)).toBe(1);
  const rows = await server.db
    .select({ seat: participations.seat, at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, c.eventId), eq(participations.userId, ana.user.id)));
  expect(rows).toHaveLength(1);
  expect(rows[0]!.seat).toBe(true);
  expect(rows[0]!.at).not.toBeNull();
});

test("a competitor checked in without a seat who waits for one gets it on the same row when a seat frees", async () => {
  const c = await competition();
  const ana = await person("Ana Quispe");
  await team(c, [ana]);
  await scan(c.eventId, ana, c.door);
  const [beto, caro] = [await person("Beto Choque"), await person("Caro Mamani")];
  expect(await joinEvent(server.db, beto.user, c.eventId)).toBe("joined");
  expect(await joinEvent(server.db, caro.user, c.eventId)).toBe("joined");
  // The two seats are taken: she waits, keeping her check-in.
  expect(await joinEvent(server.db, ana.user, c.eventId)).toBe("waiting");
  await leaveEvent(server.db, beto.user, c.eventId);
  const rows = await server.db
    .select({ seat: participations.seat, at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, c.eventId), eq(participations.userId, ana.user.id)));
  expect(rows).toEqual([{ seat: true, at: expect.any(Date) }]);
  expect(await countParticipants(server.db, c.eventId)).toBe(2);
});

test("a competitor checked in on an audience registration whose payment runs out keeps the check-in, without the seat", async () => {
  const c = await competition();
  await server.db
    .update(events)
    .set({ priceCents: 2000, holdHours: 1 })
    .where(eq(events.id, c.eventId));
  const ana = await person("Ana Quispe");
  const teamId = await team(c, [ana]);
  expect(await joinEvent(server.db, ana.user, c.eventId)).toBe("joined");
  await scan(c.eventId, ana, c.door);
  // The hold (an hour) runs out while the competition is on.
  expect(await expireHolds(server.db, new Date(Date.now() + 2 * 3_600_000))).toBe(1);
  const rows = await server.db
    .select({ seat: participations.seat, at: participations.checkedInAt })
    .from(participations)
    .where(and(eq(participations.eventId, c.eventId), eq(participations.userId, ana.user.id)));
  expect(rows).toEqual([{ seat: false, at: expect.any(Date) }]);
  expect((await teamAtDoor(server.db, teamId))?.teamCheckedIn).toBe(true);
});

test("a team is checked in when every member is; its coach counts only where the category requires one", async () => {
  const c = await competition();
  const [ana, beto, coach] = [await person("Ana"), await person("Beto"), await person("Coach")];
  const free = await team(c, [ana, beto], { coach });
  await scan(c.eventId, ana, c.door);
  expect(await teamAtDoor(server.db, free)).toMatchObject({
    checkedIn: 1,
    expected: 2,
    teamCheckedIn: false,
  });
  await scan(c.eventId, beto, c.door);
  expect(await teamAtDoor(server.db, free)).toMatchObject({
    checkedIn: 2,
    expected: 2,
    teamCheckedIn: true,
  });

  await server.db
    .update(competitionCategories)
    .set({ coachRequired: true })
    .where(eq(competitionCategories.id, c.categoryId));
  expect(await teamAtDoor(server.db, free)).toMatchObject({ expected: 3, teamCheckedIn: false });
  await scan(c.eventId, coach, c.door);
  expect(await teamAtDoor(server.db, free)).toMatchObject({
    checkedIn: 3,
    expected: 3,
    teamCheckedIn: true,
  });
});

test("competing teams: approved, checked in and passed at the latest inspection — failed then passed competes, passed then failed does not, nor one not checked in or withdrawn", async () => {
  const c = await competition();
  const people = await Promise.all(["A", "B", "C", "D"].map((n) => person(`Persona ${n}`)));
  const retried = await team(c, [people[0]!], { name: "Alfa" });
  const spoiled = await team(c, [people[1]!], { name: "Beta" });
  const absent = await team(c, [people[2]!], { name: "Gamma" });
  const gone = await team(c, [people[3]!], { name: "Delta" });
  for (const p of [people[0]!, people[1]!, people[3]!]) await scan(c.eventId, p, c.door);
  const t0 = new Date();
  await inspect(c.door, c.eventId, retried, "failed", "Pesa 520 g: el máximo es 500 g.", t0);
  expect(await teamCompetes(server.db, retried)).toBe(false);
  await inspect(c.door, c.eventId, retried, "passed", "", t0);
  await inspect(c.door, c.eventId, spoiled, "passed", "", t0);
  await inspect(c.door, c.eventId, spoiled, "failed", "Cambiaron las ruedas: mide 21 cm.", t0);
  await inspect(c.door, c.eventId, absent, "passed");
  await inspect(c.door, c.eventId, gone, "passed");
  await server.db
    .update(competitionTeams)
    .set({ status: "withdrawn" })
    .where(eq(competitionTeams.id, gone));

  expect(await competingTeams(server.db, c.categoryId)).toEqual([
    expect.objectContaining({ id: retried, name: "Alfa", robotName: "Illimani" }),
  ]);
  expect(await teamCompetes(server.db, retried)).toBe(true);
  for (const id of [spoiled, absent, gone]) expect(await teamCompetes(server.db, id)).toBe(false);
  // Every try stays, newest first on the board.
  expect((await inspections(retried)).map((i) => i.result)).toEqual(["failed", "passed"]);
  expect(await competingTeams(server.db, "no-es-un-id")).toEqual([]);
  expect(await competingTeams(server.db, randomUUID())).toEqual([]);
  expect(await teamCompetes(server.db, "x")).toBe(false);
});

test("door staff inspect within their window, and organisers and admins; plain members, door staff of another event and door staff outside their hours are refused in Spanish, nothing changed", async () => {
  const c = await competition();
  const teamId = await team(c, [await person("Ana")]);
  await inspect(c.door, c.eventId, teamId, "passed");
  await inspect(c.organiser, c.eventId, teamId, "passed");
  await inspect(admin.user, c.eventId, teamId, "passed");
  expect((await inspections(teamId)).map((i) => i.inspectedByName)).toEqual([
    "Pedro Puerta",
    "Olga Organiza",
    admin.user.nombreCompleto?.trim() || admin.user.displayName?.trim() || admin.user.email,
  ]);

  const member = await person("Mía Miembro");
  const later = await createTestEvent(server.db, admin.user, { nombreEvento: "Dentro de años" });
  const laterDoor = await person("Puerta Tardía");
  await grantRole(server.db, admin.user, {
    userId: laterDoor.user.id,
    kind: "door",
    eventId: later.id,
  });
  const [laterCategory] = await server.db
    .insert(competitionCategories)
    .values({
      eventId: later.id,
      position: 1,
      name: "Minisumo",
      level: "abierta",
      minMembers: 1,
      maxMembers: 3,
      coachRequired: false,
      registrationClosesAt: new Date("2099-01-01T00:00:00Z"),
      format: "llaves",
    })
    .returning({ id: competitionCategories.id });
  const laterTeam = await team({ eventId: later.id, categoryId: laterCategory!.id }, [member]);
  const before = { rows: await inspections(), audit: await auditCount() };
  const refusals: Array<[Parameters<typeof recordInspection>[1], string, string, string]> = [
    [member.user, c.eventId, teamId, "Acceso denegado. No eres un administrador."],
    [c.doorElsewhere, c.eventId, teamId, "No tienes permiso para hacer esto."],
    [
      { ...laterDoor.user, grants: [{ kind: "door", eventId: later.id }] },
      later.id,
      laterTeam,
      "El registro de entrada de este evento no está abierto ahora para el personal de puerta.",
    ],
    [null, c.eventId, teamId, "Acceso denegado. No eres un administrador."],
  ];
  for (const [actor, eventId, id, message] of refusals) {
    const error = await inspect(actor, eventId, id, "passed").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAllowedError);
    expect((error as Error).message).toBe(message);
    await expect(doorBoard(server.db, actor, eventId, new Date())).rejects.toBeInstanceOf(
      NotAllowedError,
    );
  }
  // Through the page as well: a member and door staff of another event get a 403.
  for (const p of [member, c.doorElsewherePerson]) {
    const page = await p.client.get(`/admin/eventos/${c.eventId}/inspeccion`);
    expect(page.status).toBe(302);
    expect(page.location).toMatch(/\/inicio$/);
    const post = await p.client.post(`/admin/eventos/${c.eventId}/inspeccion`, {
      intent: "inspect",
      teamId,
      resultado: "passed",
    });
    expect(post.status).toBe(403);
  }
  expect({ rows: await inspections(), audit: await auditCount() }).toEqual(before);
});

test("a team not approved is not inspected, nor any once its category has started (its own start, or the event's)", async () => {
  const c = await competition();
  const pending = await team(c, [await person("Pía")], { status: "pending" });
  const rejected = await team(c, [await person("Raúl")], { status: "rejected" });
  const withdrawn = await team(c, [await person("Wara")], { status: "withdrawn" });
  const approved = await team(c, [await person("Ana")]);
  const before = { rows: await inspections(), audit: await auditCount() };
  for (const id of [pending, rejected, withdrawn])
    await expect(inspect(c.door, c.eventId, id, "passed")).rejects.toMatchObject({
      status: 409,
      message: INSPECTION_MESSAGES.notApproved,
    });
  // The event starts in half an hour: at its start the category (without a start of its own) has started.
  const [event] = await server.db
    .select({ startsAt: competitionCategories.startsAt })
    .from(competitionCategories)
    .where(eq(competitionCategories.id, c.categoryId));
  expect(event?.startsAt).toBeNull();
  const inHour = new Date(Date.now() + 3_600_000);
  await expect(
    inspect(c.organiser, c.eventId, approved, "passed", "", inHour),
  ).rejects.toMatchObject({
    status: 409,
    message: INSPECTION_MESSAGES.started,
  });
  // A category that started a minute ago refuses now, even with the door open.
  await server.db
    .update(competitionCategories)
    .set({ startsAt: new Date(Date.now() - 60_000) })
    .where(eq(competitionCategories.id, c.categoryId));
  await expect(inspect(c.door, c.eventId, approved, "failed", "Tarde")).rejects.toMatchObject({
    status: 409,
    message: INSPECTION_MESSAGES.started,
  });
  expect({ rows: await inspections(), audit: await auditCount() }).toEqual(before);
  // Its screen says the inspection is closed and offers no form.
  const page = text((await c.doorPerson.client.get(`/admin/eventos/${c.eventId}/inspeccion`)).text);
  expect(page).toContain("La categoría ya empezó: la inspección está cerrada.");
  expect(page).not.toContain('name="resultado"');
  // A category that starts later than the event keeps it open past the event's start.
  await server.db
    .update(competitionCategories)
    .set({ startsAt: new Date(Date.now() + 2 * 3_600_000) })
    .where(eq(competitionCategories.id, c.categoryId));
  await expect(inspect(c.door, c.eventId, approved, "passed", "", inHour)).resolves.toBe("passed");
});

test("bad input to the inspection form: a Spanish message, a 4xx and nothing changed", async () => {
  const c = await competition();
  const teamId = await team(c, [await person("Ana")]);
  const other = await competition();
  const foreign = await team(other, [await person("Otro")]);
  const path = `/admin/eventos/${c.eventId}/inspeccion`;
  const base = { intent: "inspect", teamId, resultado: "failed", notas: "Falta la etiqueta" };
  const cases: Array<[Record<string, string | string[]>, number, string]> = [
    [{ ...base, resultado: "" }, 400, INSPECTION_MESSAGES.result],
    [{ intent: "inspect", teamId }, 400, INSPECTION_MESSAGES.result],
    [{ ...base, resultado: "maybe" }, 400, INSPECTION_MESSAGES.result],
    [{ ...base, notas: "" }, 400, INSPECTION_MESSAGES.notesMissing],
    [{ ...base, notas: "   " }, 400, INSPECTION_MESSAGES.notesMissing],
    [{ ...base, notas: "x".repeat(501) }, 400, INSPECTION_MESSAGES.notesTooLong],
    [{ ...base, notas: "mal\u0000" }, 400, KERNEL_MESSAGES.controlCharacter],
    [{ ...base, notas: "mal\u0007" }, 400, KERNEL_MESSAGES.controlCharacter],
    [{ ...base, notas: ["a", "b"] }, 400, INSPECTION_MESSAGES.malformed],
    [{ ...base, teamId: [teamId, teamId] }, 400, INSPECTION_MESSAGES.malformed],
    [{ ...base, resultado: ["passed", "failed"] }, 400, INSPECTION_MESSAGES.malformed],
    [{ ...base, intent: "otra" }, 400, INSPECTION_MESSAGES.malformed],
    [{ ...base, teamId: "no-es-un-id" }, 404, INSPECTION_MESSAGES.teamNotFound],
    [{ ...base, teamId: randomUUID() }, 404, INSPECTION_MESSAGES.teamNotFound],
    [{ ...base, teamId: foreign }, 404, INSPECTION_MESSAGES.teamNotFound],
  ];
  const before = { rows: await inspections(), audit: await auditCount() };
  for (const [fields, status, message] of cases) {
    const reply = await c.organiserPerson.client.post(path, fields);
    expect({ fields, status: reply.status }).toEqual({ fields, status });
    expect(text(reply.text)).toContain(message);
  }
  // A body that is not a form.
  const raw = await c.organiserPerson.client.request("POST", path, {
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ intent: "inspect", teamId, resultado: "passed" }),
  });
  expect(raw.status).toBe(400);
  expect({ rows: await inspections(), audit: await auditCount() }).toEqual(before);
  // 500 characters with a line break is fine.
  const ok = await c.organiserPerson.client.post(path, {
    ...base,
    notas: `Rueda floja\n${"y".repeat(488)}`,
  });
  expect(ok.status).toBe(302);
  expect((await inspections(teamId))[0]?.notes).toContain("Rueda floja\n");
});

test("the inspection screen lists each category's approved teams with their members' check-in, the team's badges and its history; the form works without JavaScript and is audited", async () => {
  const c = await competition();
  const [ana, beto] = [await person("Ana Quispe"), await person("Beto Mamani")];
  const teamId = await team(c, [ana, beto], { name: "Los Cóndores" });
  await team(c, [await person("Pía Pendiente")], { status: "pending", name: "Pendientes" });
  await scan(c.eventId, ana, c.door);
  const path = `/admin/eventos/${c.eventId}/inspeccion`;
  const page = await c.doorPerson.client.get(path);
  expect(page.status).toBe(200);
  expect(page.headers.get("Cache-Control")).toBe("no-store");
  const html = words(page.text);
  expect(html).toContain("Los Cóndores");
  expect(html).not.toContain("Pendientes");
  expect(html).toContain("Ana Quispe — ✓ registró entrada");
  expect(html).toContain("Beto Mamani — sin registrar");
  expect(html).toContain("Equipo sin registrar");
  expect(html).toContain("Robot sin inspeccionar");

  const audit = await auditCount();
  const failed = await c.doorPerson.client.post(path, {
    intent: "inspect",
    teamId,
    resultado: "failed",
    notas: "Pesa 520 g",
  });
  expect(failed.status).toBe(302);
  expect(failed.location).toContain(`/inspeccion#equipo-${teamId}`);
  await c.doorPerson.client.post(path, { intent: "inspect", teamId, resultado: "passed" });
  expect(await auditCount()).toBe(audit + 2);
  const [entry] = await server.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, "competition.team.inspect"))
    .orderBy(asc(auditLog.at))
    .limit(1)
    .offset(0);
  expect(entry?.summary).toMatch(/Inspeccionó el robot «Illimani» del equipo «.*»/);
  const after = words((await c.doorPerson.client.get(path)).text);
  expect(after).toContain("Robot aprobado");
  expect(after).toContain("Historial de inspecciones (2)");
  expect(after).toContain("No aprobado, por Pedro Puerta — Pesa 520 g");
  // The door's check-in page and the teams' list lead here.
  expect((await c.doorPerson.client.get(`/admin/eventos/${c.eventId}/registro`)).text).toContain(
    `href="${path}"`,
  );
  expect(
    (await c.organiserPerson.client.get(`/admin/eventos/${c.eventId}/equipos`)).text,
  ).toContain(`href="${path}"`);
});

test("the team's page shows its members their check-in, the inspection with its notes and their pass; the public sees none of it", async () => {
  const c = await competition();
  const [ana, beto] = [await person("Ana Quispe"), await person("Beto Mamani")];
  const teamId = await team(c, [ana, beto], { name: "Los Cóndores" });
  await scan(c.eventId, ana, c.door);
  await inspect(c.door, c.eventId, teamId, "failed", "Falta el botón de parada");
  const mine = text((await ana.client.get(`/equipos/${teamId}`)).text);
  expect(mine).toContain("En la puerta");
  expect(mine).toContain("1 de 2 registraron su entrada");
  expect(mine).toContain("Robot no aprobado");
  expect(mine).toContain("Falta el botón de parada");
  expect(mine).toContain("Tu pase");
  const stranger = await person("Curioso");
  const theirs = text((await stranger.client.get(`/equipos/${teamId}`)).text);
  expect(theirs).not.toContain("En la puerta");
  expect(theirs).not.toContain("Falta el botón de parada");
  expect(theirs).not.toContain("Tu pase");
  const visitor = text((await new BrowserClient(server.url).get(`/equipos/${teamId}`)).text);
  expect(visitor).not.toContain("Falta el botón de parada");
  const publicPage = text((await stranger.client.get(`/detalles/${c.eventId}`)).text);
  expect(publicPage).not.toContain("Falta el botón de parada");
  expect(publicPage).not.toContain("Robot no aprobado");
});

test("a member's data download carries their teams' inspections without the inspector's name; an inspector's deleted account leaves 'cuenta eliminada'", async () => {
  const c = await competition();
  const ana = await person("Ana Quispe");
  const teamId = await team(c, [ana], { name: "Los Cóndores" });
  const inspector = await person("Ignacio Inspector");
  await grantRole(server.db, admin.user, {
    userId: inspector.user.id,
    kind: "door",
    eventId: c.eventId,
  });
  await inspect(
    { ...inspector.user, grants: [{ kind: "door", eventId: c.eventId }] },
    c.eventId,
    teamId,
    "failed",
    "Mide 21 cm",
  );
  const data = JSON.parse((await ana.client.get("/profile/datos")).text) as MemberData;
  expect(data.inspeccionesDeRobots).toEqual([
    expect.objectContaining({
      equipo: "Los Cóndores",
      robot: "Illimani",
      resultado: "No aprobado",
      notas: "Mide 21 cm",
    }),
  ]);
  expect(JSON.stringify(data)).not.toContain("Ignacio");
  const outsider = JSON.parse(
    (await (await person("Nadie")).client.get("/profile/datos")).text,
  ) as MemberData;
  expect(outsider.inspeccionesDeRobots).toEqual([]);

  expect(
    (await inspector.client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" }))
      .status,
  ).toBe(302);
  const [row] = await inspections(teamId);
  expect(row).toMatchObject({
    inspectedBy: null,
    inspectedByName: "cuenta eliminada",
    result: "failed",
  });
});

test("the category editor takes a start, both blank for the event's; half of it or a bad date is refused in Spanish", () => {
  const base = {
    nombre: "Minisumo",
    nivel: "abierta",
    minimo: "1",
    maximo: "3",
    fechaCierre: "2030-11-30",
    horaCierre: "18:00",
    formato: "llaves",
  };
  expect(parseCategory(base, "America/La_Paz").startsAt).toBeNull();
  expect(
    parseCategory({ ...base, fechaInicio: "2030-12-01", horaInicio: "10:30" }, "America/La_Paz")
      .startsAt,
  ).toEqual(new Date("2030-12-01T14:30:00Z"));
  for (const [fields, message] of [
    [{ fechaInicio: "2030-12-01" }, CATEGORY_MESSAGES.startTime],
    [{ horaInicio: "10:30" }, CATEGORY_MESSAGES.startDate],
    [{ fechaInicio: "2030-02-30", horaInicio: "10:30" }, CATEGORY_MESSAGES.startDate],
    [{ fechaInicio: "2030-12-01", horaInicio: "25:00" }, CATEGORY_MESSAGES.startTime],
  ] as const)
    expect(() => parseCategory({ ...base, ...fields }, "America/La_Paz")).toThrow(message);
});

test("the participants list and its CSV name each competitor's and coach's team; the audience has none", async () => {
  const c = await competition();
  const ana = await person("Ana Quispe");
  const coach = await person("Carla Entrena");
  const audience = await person("Diego Público");
  await team(c, [ana], { name: "Los Cóndores", coach });
  await team(c, [await person("Eva Espera")], { name: "Los Pumas", status: "pending" });
  expect((await scan(c.eventId, ana, c.door)).outcome).toBe("checkedIn");
  expect((await scan(c.eventId, coach, c.door)).outcome).toBe("checkedIn");
  expect(await joinEvent(server.db, audience.user, c.eventId)).toBe("joined");

  const page = await admin.client.get(`/admin/eventos/${c.eventId}/participantes`);
  expect(page.status).toBe(200);
  /** Each person's row of the list, as read. */
  const rowOf = (html: string, name: string) =>
    words(html.split("<li").find((row) => words(row).startsWith(`>${name}`)) ?? "");
  expect(rowOf(page.text, "Ana Quispe")).toContain("Equipo: «Los Cóndores» · Robot Sumo");
  expect(rowOf(page.text, "Ana Quispe")).not.toContain("entrenador");
  expect(rowOf(page.text, "Carla Entrena")).toContain(
    "Equipo: «Los Cóndores» · Robot Sumo, como entrenador",
  );
  expect(rowOf(page.text, "Diego Público")).not.toBe("");
  expect(rowOf(page.text, "Diego Público")).not.toContain("Equipo");
  expect(text(page.text)).toContain(`href="/equipos/`);

  const csv = await admin.client.get(`/admin/eventos/${c.eventId}/participantes.csv`);
  const lines = csv.text.replace(/^\uFEFF/, "").split("\r\n");
  const lineOf = (name: string) => lines.find((l) => l.includes(name)) ?? "";
  expect(lines[0]).toMatch(/,"?Equipos"?$/);
  expect(lineOf("Ana Quispe")).toMatch(/,"?«Los Cóndores» · Robot Sumo"?$/);
  expect(lineOf("Carla Entrena")).toMatch(/,"?«Los Cóndores» · Robot Sumo, como entrenador"?$/);
  expect(lineOf("Diego Público")).toMatch(/,(""|)$/);

  // A member of a pending team who came as audience: the team is named with its state.
  const eva = (
    await server.db.select().from(users).where(eq(users.nombreCompleto, "Eva Espera"))
  )[0]!;
  expect(await joinEvent(server.db, eva, c.eventId)).toBe("joined");
  const again = (await admin.client.get(`/admin/eventos/${c.eventId}/participantes`)).text;
  expect(rowOf(again, "Eva Espera")).toContain(
    "Equipo: «Los Pumas» · Robot Sumo (pendiente de aprobación)",
  );
  // Only those who may see the event's participants read who competes: not a plain member, nor
  // door staff of another event.
  await expect(teamsOfParticipants(server.db, audience.user, c.eventId)).rejects.toThrow(
    NotAllowedError,
  );
  await expect(teamsOfParticipants(server.db, c.doorElsewhere, c.eventId)).rejects.toThrow(
    NotAllowedError,
  );
  expect((await teamsOfParticipants(server.db, c.organiser, c.eventId)).get(ana.user.id)).toEqual([
    expect.objectContaining({ team: "Los Cóndores", coach: false }),
  ]);
  // Without teams, an event's file is as it was.
  const plain = await createTestEvent(server.db, admin.user, { nombreEvento: "Charla abierta" });
  const plainCsv = await admin.client.get(`/admin/eventos/${plain.id}/participantes.csv`);
  expect(plainCsv.text.replace(/^\uFEFF/, "").split("\r\n")[0]).not.toContain("Equipos");
});
