// Staff links (issue 32, decision 041): an organiser makes a link on the event's management page;
// a phone without an account opens it and may check people in at that event, and nothing else;
// revoking it refuses that phone's next request (queued check-ins included) in Spanish; forged,
// malformed, expired and revoked links get a clear page and change nothing; every step is in the
// audit log; the member's data download carries the links they made, and deleting their account
// keeps the links under 'cuenta eliminada'.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { checkInCode, checkInToken } from "~/attendance/check-in.server";
import { auditLog, participations, staffLinks, type User } from "~/db/schema.server";
import { joinEvent } from "~/events/participation.server";
import { zonedDateTime } from "~/kernel/time";
import { KERNEL_MESSAGES } from "~/kernel/messages";
import { MESSAGES } from "~/messages";
import { deleteAccount, exportMemberData } from "~/member-data.server";
import { NotAllowedError } from "~/kernel/permissions";
import { grantRole } from "~/members/roles.server";
import {
  createStaffLink,
  defaultExpiry,
  listStaffLinks,
  revokeStaffLink,
  StaffLinkError,
} from "~/members/staff-links.server";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { alertsIn, createAdmin, createMember, createTestEvent, landOn } from "../helpers/events";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";

const ZONE = "America/La_Paz";
let server: TestServer;
type Person = { client: BrowserClient; user: User };
let admin: Person;
let organiser: Person; // of `soon`
let elsewhere: Person; // organiser of `other`
let door: Person; // door staff of `soon`
let participant: Person;
let second: Person;
let soon: { id: string; nombreEvento: string; endsAt: Date; doorHoursAfter: number };
let other: { id: string };
let later: { id: string };

async function eventIn(hours: number, name: string) {
  const local = zonedDateTime(new Date(Date.now() + hours * 3_600_000), ZONE);
  return createTestEvent(server.db, admin.user, {
    nombreEvento: name,
    fechaEvento: local.date,
    horaEvento: local.time,
  });
}

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
  soon = await eventIn(1, "Feria de robótica");
  other = await eventIn(2, "Torneo de sumo");
  later = await eventIn(240, "Congreso lejano");
  organiser = await createMember(server, `org-${randomUUID()}@example.com`, "Olga Organiza");
  elsewhere = await createMember(server, `otra-${randomUUID()}@example.com`, "Otto Otro");
  door = await createMember(server, `puerta-${randomUUID()}@example.com`, "Pedro Puerta");
  participant = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  second = await createMember(server, `beto-${randomUUID()}@example.com`, "Beto Mamani");
  await joinEvent(server.db, participant.user, soon.id);
  await joinEvent(server.db, second.user, soon.id);
  await joinEvent(server.db, participant.user, later.id);
  const give = (p: Person, kind: string, eventId?: string) =>
    grantRole(server.db, admin.user, { userId: p.user.id, kind, eventId });
  await give(organiser, "organiser", soon.id);
  await give(organiser, "organiser", later.id);
  await give(elsewhere, "organiser", other.id);
  await give(door, "door", soon.id);
}, 120_000);
afterAll(() => server?.close());

failOnConsoleError();

const auditCount = async () => (await server.db.select().from(auditLog)).length;
const linkCount = async () => (await server.db.select().from(staffLinks)).length;

/** The link a management page shows once, after it was made. */
function linkIn(html: string): string {
  const url = /id="staff-link-url"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!url) throw new Error("La página no muestra el enlace creado");
  return pathOf(url)!;
}

/** An organiser makes a link over HTTP; returns its path (/puerta/…). */
async function makeLink(by: Person, eventId: string, label: string, vence = ""): Promise<string> {
  const reply = await by.client.post(`/admin/eventos/${eventId}/horario`, {
    intent: "createStaffLink",
    nombre: label,
    vence,
  });
  expect(reply.status).toBe(200);
  return linkIn(reply.text);
}

/** A phone with no account that opens `path`. */
async function openOnPhone(path: string) {
  const phone = new BrowserClient(server.url);
  const landing = await phone.get(path);
  expect(landing.status).toBe(200);
  const opened = await phone.post(path, {});
  expect(opened.status).toBe(302);
  return { phone, opened };
}

test("an organiser makes a link; only its hash is kept; it expires by default when the door hours end", async () => {
  const before = await auditCount();
  const page = await organiser.client.post(`/admin/eventos/${soon.id}/horario`, {
    intent: "createStaffLink",
    nombre: "Lucía Voluntaria",
    vence: "",
  });
  expect(page.status).toBe(200);
  const path = linkIn(page.text);
  expect(path).toMatch(/^\/puerta\/[A-Za-z0-9_-]{48}$/);
  expect(page.text).toContain("https://wa.me/?text=");
  expect(page.text).toContain("no se vuelve a mostrar");
  const token = path.slice("/puerta/".length);
  const [row] = await server.db
    .select()
    .from(staffLinks)
    .where(and(eq(staffLinks.eventId, soon.id), eq(staffLinks.label, "Lucía Voluntaria")));
  expect(row).toBeDefined();
  expect(JSON.stringify(row)).not.toContain(token);
  expect(row!.expiresAt.getTime()).toBe(defaultExpiry(soon).getTime());
  expect(row!.createdByName).toBe("Olga Organiza");
  const entries = (await server.db.select().from(auditLog)).slice(before);
  expect(entries.map((e) => [e.action, e.role, e.actorName])).toEqual([
    ["staffLink.create", "organiser", "Olga Organiza"],
  ]);
  // The list shows it, active; reloading shows the link no more.
  const list = await organiser.client.get(`/admin/eventos/${soon.id}/horario`);
  expect(list.text).toContain("Lucía Voluntaria");
  expect(list.text).toContain("Activo");
  expect(list.text).not.toContain(token);
});

test("creating or revoking a link: other organisers, door staff and members are refused (403, nothing written); an unknown event is a 404 for admins", async () => {
  const [link] = await listStaffLinks(server.db, admin.user, soon.id);
  for (const p of [elsewhere, door, participant]) {
    const before = [await auditCount(), await linkCount()];
    const made = await p.client.post(`/admin/eventos/${soon.id}/horario`, {
      intent: "createStaffLink",
      nombre: "Intruso",
    });
    expect(made.status).toBe(403);
    const revoked = await p.client.post(`/admin/eventos/${soon.id}/horario`, {
      intent: "revokeStaffLink",
      linkId: link!.id,
    });
    expect(revoked.status).toBe(403);
    expect([await auditCount(), await linkCount()]).toEqual(before);
  }
  // A visitor is sent to sign in.
  const visitor = await new BrowserClient(server.url).post(`/admin/eventos/${soon.id}/horario`, {
    intent: "createStaffLink",
    nombre: "Nadie",
  });
  expect([visitor.status, pathOf(visitor.location)?.startsWith("/login")]).toEqual([302, true]);
  // At the model: an unknown or malformed event is a 404 for an admin, refused for the rest.
  const before = [await auditCount(), await linkCount()];
  for (const id of [randomUUID(), "no-es-un-id"]) {
    const byAdmin = await createStaffLink(
      server.db,
      TEST_SESSION_SECRET,
      admin.user,
      id,
      { label: "X" },
      ZONE,
    ).catch((e: unknown) => e);
    expect((byAdmin as { status: number }).status).toBe(404);
    const byOrganiser = await createStaffLink(
      server.db,
      TEST_SESSION_SECRET,
      { ...organiser.user, grants: [{ kind: "organiser", eventId: soon.id }] },
      id,
      { label: "X" },
      ZONE,
    ).catch((e: unknown) => e);
    expect(byOrganiser).toBeInstanceOf(NotAllowedError);
  }
  const unknownPage = await admin.client.post(`/admin/eventos/${randomUUID()}`, {
    intent: "createStaffLink",
    nombre: "X",
  });
  expect(unknownPage.status).toBe(404);
  expect([await auditCount(), await linkCount()]).toEqual(before);
});

test("bad link forms: missing, too long or odd name, malformed, past or far expiry — the field says why, 400, nothing written", async () => {
  const before = [await auditCount(), await linkCount()];
  const future = zonedDateTime(new Date(Date.now() + 86_400_000), ZONE);
  const cases: Array<[Record<string, string | string[]>, string]> = [
    [{ vence: "" }, MESSAGES.staffLinkLabelMissing],
    [{ nombre: "   " }, MESSAGES.staffLinkLabelMissing],
    [{ nombre: "x".repeat(81) }, MESSAGES.staffLinkLabelTooLong],
    [{ nombre: "Ana\tBeto" }, MESSAGES.staffLinkLabelInvalid],
    [{ nombre: "Ana\u0007" }, KERNEL_MESSAGES.controlCharacter],
    [{ nombre: ["Ana", "Beto"] }, MESSAGES.staffLinkLabelMissing],
    [{ nombre: "Ana", vence: "mañana" }, MESSAGES.staffLinkExpiryInvalid],
    [{ nombre: "Ana", vence: "2026-02-30T10:00" }, MESSAGES.staffLinkExpiryInvalid],
    [{ nombre: "Ana", vence: `${future.date}T25:00` }, MESSAGES.staffLinkExpiryInvalid],
    [{ nombre: "Ana", vence: "2020-01-01T10:00" }, MESSAGES.staffLinkExpiryPast],
    [{ nombre: "Ana", vence: "2099-01-01T10:00" }, MESSAGES.staffLinkExpiryTooFar],
  ];
  for (const [fields, message] of cases) {
    const reply = await organiser.client.post(`/admin/eventos/${soon.id}/horario`, {
      intent: "createStaffLink",
      ...fields,
    });
    expect([JSON.stringify(fields), reply.status]).toEqual([JSON.stringify(fields), 400]);
    expect(reply.text).toContain(message);
  }
  // Revoking an unknown or malformed link: 404 with the reason.
  for (const linkId of [randomUUID(), "x'; drop table staff_links", ""]) {
    const reply = await organiser.client.post(`/admin/eventos/${soon.id}/horario`, {
      intent: "revokeStaffLink",
      linkId,
    });
    expect(reply.status).toBe(404);
    expect(reply.text).toContain(MESSAGES.staffLinkNotFound);
  }
  expect([await auditCount(), await linkCount()]).toEqual(before);
  // A chosen expiry is kept, in the site's time zone.
  const path = await makeLink(organiser, soon.id, "Con fecha", `${future.date}T${future.time}`);
  expect(path).toMatch(/^\/puerta\//);
  const [row] = await server.db.select().from(staffLinks).where(eq(staffLinks.label, "Con fecha"));
  expect(zonedDateTime(row!.expiresAt, ZONE)).toEqual(future);
});

test("a phone opens the link, checks a pass in, and can do nothing else; revoking it refuses its next check-in in Spanish", async () => {
  const path = await makeLink(organiser, soon.id, "Rosa Puerta");
  const before = await auditCount();
  const { phone, opened } = await openOnPhone(path);
  expect(pathOf(opened.location)).toBe(`/admin/eventos/${soon.id}/registro`);
  expect(await auditCount()).toBe(before + 1);
  // The landing page says what the link is for.
  const landing = await new BrowserClient(server.url).get(path);
  expect(landing.text).toMatch(/Registro de entrada: (<!-- -->)?Feria de robótica/);
  expect(landing.text).toContain("Rosa Puerta");

  const page = await phone.get(`/admin/eventos/${soon.id}/registro`);
  expect(page.status).toBe(200);
  expect(page.text).toMatch(/Registro: (<!-- -->)?Feria de robótica/);
  // Whose link it is, and no way to the pages it cannot open.
  expect(page.text).toContain("Enlace de registro «Rosa Puerta»");
  expect(page.text).not.toContain(`href="/admin/eventos/${soon.id}/participantes"`);
  const data = `/admin/eventos/${soon.id}/registro/datos`;
  const token = checkInToken(TEST_SESSION_SECRET, soon.id, participant.user.id);
  const done = await phone.post(data, { token });
  expect(done.status).toBe(200);
  expect(JSON.parse(done.text)).toMatchObject({
    ok: true,
    outcome: "checkedIn",
    checkedInBy: "Enlace de registro «Rosa Puerta»",
  });
  const [marked] = await server.db
    .select()
    .from(participations)
    .where(
      and(eq(participations.eventId, soon.id), eq(participations.userId, participant.user.id)),
    );
  expect(marked!.checkedInBy).toBeNull();
  expect(marked!.checkedInByLink).not.toBeNull();
  const entries = (await server.db.select().from(auditLog)).slice(before);
  expect(entries.map((e) => [e.action, e.role, e.actorName, e.actorId])).toEqual([
    ["staffLink.open", "doorLink", "Enlace de registro «Rosa Puerta»", null],
    ["checkIn", "doorLink", "Enlace de registro «Rosa Puerta»", null],
  ]);

  // Nothing else: the event's other pages, another event's check-in, the admin area, a member's pages.
  const snapshotBefore = await auditCount();
  for (const target of [
    `/admin/eventos/${soon.id}/horario`,
    `/admin/eventos/${soon.id}/participantes`,
    `/admin/eventos/${soon.id}/participantes.csv`,
    `/admin/eventos/${other.id}/registro`,
    `/admin/eventos/${other.id}/registro/datos`,
    "/projectsandnotes",
    "/admin/auditoria",
  ]) {
    const away = await phone.get(target);
    expect([target, away.status]).toEqual([target, 403]);
    expect(away.text).toContain(MESSAGES.staffLinkOnlyCheckIn);
  }
  for (const target of ["/admin", "/profile", "/aditionaldata"]) {
    const away = await phone.get(target);
    expect([target, away.status, pathOf(away.location)?.startsWith("/login")]).toEqual([
      target,
      302,
      true,
    ]);
  }
  const posts: Array<[string, Record<string, string>]> = [
    [`/admin/eventos/${soon.id}/horario`, { intent: "createStaffLink", nombre: "Otro" }],
    [`/admin/eventos/${soon.id}/horario`, { intent: "doorWindow", antes: "9", despues: "9" }],
    [`/admin/eventos/${soon.id}/participantes`, { intent: "checkIn", userId: second.user.id }],
    [
      `/admin/eventos/${other.id}/registro/datos`,
      { codigo: checkInCode(TEST_SESSION_SECRET, other.id, participant.user.id) },
    ],
  ];
  for (const [target, form] of posts) {
    const refused = await phone.post(target, form);
    expect([target, refused.status]).toEqual([target, 403]);
  }
  expect(await auditCount()).toBe(snapshotBefore);

  // Revoked: the very next request is refused, a queued check-in too, in Spanish; nothing changes.
  const [link] = (await listStaffLinks(server.db, admin.user, soon.id)).filter(
    (l) => l.label === "Rosa Puerta",
  );
  const revoked = await organiser.client.post(`/admin/eventos/${soon.id}/horario`, {
    intent: "revokeStaffLink",
    linkId: link!.id,
  });
  expect(revoked.status).toBe(302);
  expect(alertsIn((await landOn(organiser.client, revoked)).text)).toEqual([
    MESSAGES.staffLinkRevoked,
  ]);
  const afterRevoke = await auditCount();
  const queued = await phone.post(data, {
    token: checkInToken(TEST_SESSION_SECRET, soon.id, second.user.id),
    marcadoEn: new Date(Date.now() - 60_000).toISOString(),
  });
  expect(queued.status).toBe(410);
  expect(JSON.parse(queued.text)).toBe(MESSAGES.staffLinkWasRevoked);
  const [untouched] = await server.db
    .select()
    .from(participations)
    .where(and(eq(participations.eventId, soon.id), eq(participations.userId, second.user.id)));
  expect(untouched!.checkedInAt).toBeNull();
  const again = await phone.get(`/admin/eventos/${soon.id}/registro`);
  expect(again.status).toBe(410);
  expect(again.text).toContain(MESSAGES.staffLinkWasRevoked);
  expect(await auditCount()).toBe(afterRevoke);
  // Revoking twice says so.
  const twice = await organiser.client.post(`/admin/eventos/${soon.id}/horario`, {
    intent: "revokeStaffLink",
    linkId: link!.id,
  });
  expect(twice.status).toBe(409);
  expect(twice.text).toContain(MESSAGES.staffLinkAlreadyRevoked);
  const list = await organiser.client.get(`/admin/eventos/${soon.id}/horario`);
  expect(list.text).toContain("Revocado");
});

test("forged, malformed, unknown, expired and revoked links: a clear page, 4xx, no cookie, nothing written", async () => {
  const expiredPath = await makeLink(organiser, soon.id, "Vencido");
  await server.db
    .update(staffLinks)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(staffLinks.label, "Vencido"));
  const revokedPath = await makeLink(organiser, soon.id, "Revocado");
  const [revokedRow] = await server.db
    .select()
    .from(staffLinks)
    .where(eq(staffLinks.label, "Revocado"));
  await revokeStaffLink(server.db, admin.user, soon.id, revokedRow!.id);
  // Signed by this server, but no longer in the database.
  const gonePath = await makeLink(organiser, soon.id, "Borrado");
  await server.db.delete(staffLinks).where(eq(staffLinks.label, "Borrado"));
  const valid = expiredPath.slice("/puerta/".length);
  const forged = `${valid.slice(0, 40)}${valid.slice(40) === "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA"}`;
  const cases: Array<[string, number, string]> = [
    ["/puerta/no-es-un-enlace", 404, MESSAGES.staffLinkInvalid],
    [`/puerta/${"A".repeat(48)}`, 404, MESSAGES.staffLinkInvalid],
    [`/puerta/${forged}`, 404, MESSAGES.staffLinkInvalid],
    [`/puerta/${valid}x`, 404, MESSAGES.staffLinkInvalid],
    [`/puerta/${"%00".repeat(20)}`, 404, MESSAGES.staffLinkInvalid],
    [gonePath, 404, MESSAGES.staffLinkInvalid],
    [expiredPath, 410, MESSAGES.staffLinkExpired],
    [revokedPath, 410, MESSAGES.staffLinkWasRevoked],
  ];
  const before = [await auditCount(), await linkCount()];
  for (const [path, status, message] of cases) {
    const phone = new BrowserClient(server.url);
    const shown = await phone.get(path);
    expect([path, shown.status]).toEqual([path, status]);
    expect(shown.text).toContain(message);
    const posted = await phone.post(path, {});
    expect([path, posted.status]).toEqual([path, status]);
    expect(posted.text).toContain(message);
    expect(phone.cookies.size).toBe(0);
  }
  expect([await auditCount(), await linkCount()]).toEqual(before);
  // A cookie made up by hand opens nothing either.
  const phone = new BrowserClient(server.url);
  phone.cookies.set("ayllu_puerta", "inventado");
  const refused = await phone.post(`/admin/eventos/${soon.id}/registro/datos`, {
    codigo: checkInCode(TEST_SESSION_SECRET, soon.id, second.user.id),
  });
  expect(refused.status).toBe(404);
  expect(JSON.parse(refused.text)).toBe(MESSAGES.staffLinkInvalid);
  expect([await auditCount(), await linkCount()]).toEqual(before);
});

test("door hours still apply to a link: outside them its check-in is refused with the reason", async () => {
  const path = await makeLink(organiser, later.id, "Demasiado pronto");
  const { phone } = await openOnPhone(path);
  const before = await auditCount();
  const refused = await phone.post(`/admin/eventos/${later.id}/registro/datos`, {
    codigo: checkInCode(TEST_SESSION_SECRET, later.id, participant.user.id),
  });
  expect(refused.status).toBe(403);
  expect(JSON.parse(refused.text)).toBe(MESSAGES.outsideDoorWindow);
  expect(await auditCount()).toBe(before);
});

test("a signed-in member who opens a link checks in through it; their own pages stay theirs", async () => {
  const path = await makeLink(organiser, soon.id, "Miembro con enlace");
  const member = await createMember(server);
  await member.client.get(path);
  const opened = await member.client.post(path, {});
  expect(opened.status).toBe(302);
  expect((await member.client.get("/profile")).status).toBe(200);
  const page = await member.client.get(`/admin/eventos/${soon.id}/registro`);
  expect(page.status).toBe(200);
  // The management page is still refused to them, as to any member.
  const away = await member.client.get(`/admin/eventos/${soon.id}/horario`);
  expect([away.status, pathOf(away.location)]).toEqual([302, "/inicio"]);
});

test("the member's data lists the links they made; deleting the account keeps them under 'cuenta eliminada'", async () => {
  const maker = await createMember(server, `hace-${randomUUID()}@example.com`, "Marta Enlaces");
  await grantRole(server.db, admin.user, {
    userId: maker.user.id,
    kind: "organiser",
    eventId: soon.id,
  });
  const made = await createStaffLink(
    server.db,
    TEST_SESSION_SECRET,
    { ...maker.user, grants: [{ kind: "organiser", eventId: soon.id }] },
    soon.id,
    { label: "De Marta" },
    ZONE,
  );
  const download = await exportMemberData(server.db, maker.user);
  expect(download.enlacesDeRegistro).toEqual([
    expect.objectContaining({ eventId: soon.id, label: "De Marta", revokedAt: null }),
  ]);
  expect(JSON.stringify(download)).not.toContain(made.token);
  const overHttp = await maker.client.get("/profile/datos");
  expect(overHttp.text).toContain("De Marta");
  await deleteAccount(server.db, maker.user);
  const [kept] = await server.db.select().from(staffLinks).where(eq(staffLinks.id, made.link.id));
  expect([kept!.createdBy, kept!.createdByName, kept!.label]).toEqual([
    null,
    "cuenta eliminada",
    "De Marta",
  ]);
});

test("a staff link's kind cannot be given to a member as a role", async () => {
  const before = await auditCount();
  const refusal = await grantRole(server.db, admin.user, {
    userId: participant.user.id,
    kind: "doorLink",
    eventId: soon.id,
  }).catch((e: unknown) => e);
  expect((refusal as StaffLinkError).status).toBe(400);
  expect((refusal as Error).message).toBe(MESSAGES.roleUnknown);
  expect(await auditCount()).toBe(before);
});
