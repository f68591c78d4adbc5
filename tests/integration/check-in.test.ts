// Check-in at the door: the personal tokens and codes, the check-in page and its data route, who
// may use them, every kind of bad token or code, idempotence across phones and late queues, and
// the passes members see on /profile and the event page.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import {
  CHECK_IN_CODE_ALPHABET,
  CHECK_IN_CODE_FIELD_MAX,
  eventIdOfToken,
  normalizeCheckInCode,
} from "~/attendance/check-in";
import { participations, users, type User } from "~/db/schema.server";
import {
  checkIn,
  checkInCode,
  checkInToken,
  CheckInError,
  listCheckIn,
  readCheckInToken,
} from "~/attendance/check-in.server";
import { joinEvent } from "~/events/participation.server";
import { NotAllowedError } from "~/kernel/permissions";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import {
  createAdmin,
  createMember,
  createTestEvent,
  openForCheckIn,
  snapshot,
} from "../helpers/events";
import { startTestServer, TEST_SESSION_SECRET, type TestServer } from "../helpers/server";

let server: TestServer;
let admin: { client: BrowserClient; user: User };
const SECRET = TEST_SESSION_SECRET;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

failOnConsoleError();

async function eventWithPeople(overrides: Record<string, string> = {}) {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Torneo de Sumo ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2031-06-06",
    ...overrides,
  });
  // Its one session starts in half an hour: the door is open (decision 044).
  await openForCheckIn(server.db, event.id);
  const ana = await createMember(server, `ana-${randomUUID()}@example.com`, "Ana Quispe");
  const beto = await createMember(server, `beto-${randomUUID()}@example.com`, "Beto Mamani");
  for (const m of [ana, beto]) await joinEvent(server.db, m.user, event.id);
  return { event, ana, beto };
}

async function row(eventId: string, userId: string) {
  const [found] = await server.db
    .select({ at: participations.checkedInAt, by: participations.checkedInBy })
    .from(participations)
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)));
  return found ?? null;
}

const dataPath = (eventId: string) => `/admin/eventos/${eventId}/registro/datos`;

test("tokens and codes are the server's own: the same for a pair, different for every other, forgeries refused", () => {
  const [e1, e2, u1, u2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const token = checkInToken(SECRET, e1, u1);
  expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
  expect(checkInToken(SECRET, e1, u1)).toBe(token);
  expect(new Set([token, checkInToken(SECRET, e2, u1), checkInToken(SECRET, e1, u2)]).size).toBe(3);
  expect(readCheckInToken(SECRET, token)).toEqual({ eventId: e1, userId: u1 });
  expect(eventIdOfToken(token)).toBe(e1);
  // Another server's secret, one changed character, a swapped person: all refused.
  expect(readCheckInToken(`${SECRET}x`, token)).toBeNull();
  const flipped = token.slice(0, 60) + (token[60] === "A" ? "B" : "A") + token.slice(61);
  expect(readCheckInToken(SECRET, flipped)).toBeNull();
  const swapped = checkInToken(SECRET, e1, u2).slice(0, 43) + token.slice(43);
  expect(readCheckInToken(SECRET, swapped)).toBeNull();
  for (const bad of ["", "x", token.slice(1), `${token}=`, 42, null, undefined, { token }])
    expect(readCheckInToken(SECRET, bad)).toBeNull();

  const code = checkInCode(SECRET, e1, u1);
  expect(code).toHaveLength(8);
  for (const c of code) expect(CHECK_IN_CODE_ALPHABET).toContain(c);
  expect(checkInCode(SECRET, e1, u2)).not.toBe(code);
  expect(checkInCode(SECRET, e2, u1)).not.toBe(code);
  expect(normalizeCheckInCode(` ${code.slice(0, 4).toLowerCase()}-${code.slice(4)} `)).toBe(code);
  for (const bad of ["ABCD-234", "ABCD-23456", "ABCD-2341", "OOOO-IIII", "", 7, null])
    expect(normalizeCheckInCode(bad)).toBeNull();
});

test("visitors go to sign in and members are refused the check-in page, its data and its check-ins; nothing changes", async () => {
  const { event, ana } = await eventWithPeople();
  const visitor = new BrowserClient(server.url);
  const member = await createMember(server);
  const token = checkInToken(SECRET, event.id, ana.user.id);
  for (const path of [`/admin/eventos/${event.id}/registro`, dataPath(event.id)]) {
    const v = await visitor.get(path);
    expect(v.status).toBe(302);
    expect(pathOf(v.location)).toMatch(/^\/login/);
    const m = await member.client.get(path);
    expect(m.status).toBe(302);
    expect(pathOf(m.location)).toBe("/inicio");
    expect(m.text).not.toContain(token);
  }
  const before = await snapshot(server.db);
  for (const path of [`/admin/eventos/${event.id}/registro`, dataPath(event.id)]) {
    const v = await visitor.post(path, { intent: "checkIn", token });
    expect(v.status).toBe(302);
    expect(pathOf(v.location)).toMatch(/^\/login/);
    const m = await member.client.post(path, { intent: "checkIn", token });
    expect(m.status).toBe(403);
    expect(m.text).toContain(MESSAGES.accessDenied);
  }
  expect(await snapshot(server.db)).toEqual(before);
  // The model refuses by itself, whoever calls it.
  await expect(listCheckIn(server.db, SECRET, member.user, event.id)).rejects.toBeInstanceOf(
    NotAllowedError,
  );
  await expect(checkIn(server.db, SECRET, member.user, event.id, { token })).rejects.toBeInstanceOf(
    NotAllowedError,
  );
  await expect(checkIn(server.db, SECRET, null, event.id, { token })).rejects.toBeInstanceOf(
    NotAllowedError,
  );
  expect((await row(event.id, ana.user.id))?.at).toBeNull();
});

test("an admin's check-in page lists the participants with what a phone needs offline, and links its manifest", async () => {
  const { event, ana, beto } = await eventWithPeople();
  const page = await admin.client.get(`/admin/eventos/${event.id}/registro`);
  expect(page.status).toBe(200);
  expect(page.headers.get("cache-control")).toContain("no-store");
  expect(page.headers.get("permissions-policy")).toContain("camera=(self)");
  expect(page.text).toContain("Ana Quispe");
  expect(page.text).toContain("Beto Mamani");
  expect(page.text).toContain(`0</strong> de <!-- -->2<!-- --> presentes`);
  expect(page.text).toContain(
    `rel="manifest" href="/admin/eventos/${event.id}/registro.webmanifest"`,
  );
  expect(page.text).toContain(checkInToken(SECRET, event.id, ana.user.id));

  // A photo the member uploaded is theirs here too, before the sign-in provider's.
  const photo = `/imagenes/${"ab".repeat(16)}-320.webp`;
  await server.db.update(users).set({ ownPhotoUrl: photo }).where(eq(users.id, beto.user.id));
  const data = await admin.client.get(dataPath(event.id));
  expect(data.status).toBe(200);
  expect(data.headers.get("content-type")).toContain("application/json");
  const list = JSON.parse(data.text);
  expect(list.event.id).toBe(event.id);
  expect(list.participants.map((p: { nombre: string }) => p.nombre)).toEqual([
    "Ana Quispe",
    "Beto Mamani",
  ]);
  expect(list.participants[1]).toMatchObject({
    userId: beto.user.id,
    token: checkInToken(SECRET, event.id, beto.user.id),
    code: checkInCode(SECRET, event.id, beto.user.id),
    photoURL: photo,
    checkedInAt: null,
  });

  // Every other page keeps the camera off.
  const participants = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(participants.headers.get("permissions-policy")).toContain("camera=()");
  expect(participants.text).toContain(`href="/admin/eventos/${event.id}/registro"`);

  const manifest = await admin.client.get(`/admin/eventos/${event.id}/registro.webmanifest`);
  expect(manifest.status).toBe(200);
  expect(manifest.headers.get("content-type")).toContain("application/manifest+json");
  expect(JSON.parse(manifest.text)).toMatchObject({
    start_url: `/admin/eventos/${event.id}/registro`,
    scope: `/admin/eventos/${event.id}/`,
    display: "standalone",
    lang: "es",
  });
  const worker = await admin.client.get("/registro-sw.js");
  expect(worker.status).toBe(200);
  expect(worker.headers.get("content-type")).toContain("javascript");
  for (const size of [192, 512])
    expect((await admin.client.get(`/icons/logo-${size}.png`)).status).toBe(200);
  for (const id of [randomUUID(), "no-es-un-id"]) {
    expect((await admin.client.get(`/admin/eventos/${id}/registro`)).status).toBe(404);
    expect((await admin.client.get(dataPath(id))).status).toBe(404);
    expect((await admin.client.get(`/admin/eventos/${id}/registro.webmanifest`)).status).toBe(404);
  }
});

test("a scan checks a participant in once: a second scan says they were already in, with the first time and who marked them", async () => {
  const { event, ana } = await eventWithPeople();
  const token = checkInToken(SECRET, event.id, ana.user.id);
  const first = await admin.client.post(dataPath(event.id), { token });
  expect(first.status).toBe(200);
  const reply = JSON.parse(first.text);
  expect(reply).toMatchObject({
    ok: true,
    outcome: "checkedIn",
    userId: ana.user.id,
    nombre: "Ana Quispe",
    checkedInBy: "Jefa Admin",
  });
  const stored = await row(event.id, ana.user.id);
  expect(stored?.at?.toISOString()).toBe(reply.checkedInAt);
  expect(stored?.by).toBe(admin.user.id);

  const again = await admin.client.post(dataPath(event.id), { token });
  expect(again.status).toBe(200);
  expect(JSON.parse(again.text)).toMatchObject({
    outcome: "already",
    checkedInAt: reply.checkedInAt,
    checkedInBy: "Jefa Admin",
  });
  expect((await row(event.id, ana.user.id))?.at?.toISOString()).toBe(reply.checkedInAt);
  // The participants page (and its CSV, which the certificates read) see the same column.
  const participants = await admin.client.get(`/admin/eventos/${event.id}/participantes`);
  expect(participants.text).toContain("1 asistió");
});

test("a typed code works in any case and with spaces or a dash, also without JavaScript on the page itself", async () => {
  const { event, ana, beto } = await eventWithPeople();
  const anaCode = checkInCode(SECRET, event.id, ana.user.id);
  const typed = ` ${anaCode.slice(0, 4).toLowerCase()} - ${anaCode.slice(4)} `;
  const reply = await admin.client.post(dataPath(event.id), { codigo: typed });
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.text)).toMatchObject({ outcome: "checkedIn", userId: ana.user.id });

  // The page's own form, posted by a browser without JavaScript.
  const betoCode = checkInCode(SECRET, event.id, beto.user.id);
  const page = await admin.client.post(`/admin/eventos/${event.id}/registro`, {
    intent: "checkIn",
    codigo: betoCode,
  });
  expect(page.status).toBe(200);
  expect(page.text).toMatch(/<h2 id="checkin-result-title">Beto Mamani<\/h2>/);
  expect(page.text).toContain("Presente · ");
  expect((await row(event.id, beto.user.id))?.at).not.toBeNull();
  const wrong = await admin.client.post(`/admin/eventos/${event.id}/registro`, {
    intent: "checkIn",
    codigo: "ZZZZ-ZZZZ",
  });
  expect(wrong.status).toBe(404);
  expect(wrong.text).toContain(
    `<p class="field-error" id="checkin-code-error">${MESSAGES.checkInCodeUnknown}</p>`,
  );
  // A wrong code stays in the field to be corrected; one that checked someone in does not.
  expect(codeFieldValue(wrong.text)).toBe("ZZZZ-ZZZZ");
  expect(codeFieldValue(page.text)).toBe("");
  // What comes back is never longer than the field takes.
  const long = await admin.client.post(`/admin/eventos/${event.id}/registro`, {
    intent: "checkIn",
    codigo: "Q".repeat(5000),
  });
  expect(long.status).toBe(400);
  expect(codeFieldValue(long.text)).toBe("Q".repeat(CHECK_IN_CODE_FIELD_MAX));
});

/** The value the check-in page's code field is rendered with. */
function codeFieldValue(html: string): string | undefined {
  const input = /<input[^>]*id="checkin-code"[^>]*>/.exec(html)?.[0] ?? "";
  return /value="([^"]*)"/.exec(input)?.[1];
}

test("bad tokens and codes get a Spanish message and a 4xx, and change nothing", async () => {
  const { event, ana } = await eventWithPeople();
  const other = await eventWithPeople();
  const outsider = await createMember(server);
  const token = checkInToken(SECRET, event.id, ana.user.id);
  const cases: {
    name: string;
    form: Record<string, string | string[]>;
    status: number;
    message: string;
  }[] = [
    { name: "nothing", form: {}, status: 400, message: MESSAGES.checkInNoProof },
    {
      name: "empty",
      form: { token: "", codigo: "" },
      status: 400,
      message: MESSAGES.checkInNoProof,
    },
    {
      name: "malformed token",
      form: { token: "hola" },
      status: 400,
      message: MESSAGES.checkInTokenInvalid,
    },
    {
      name: "forged token",
      form: { token: token.slice(0, 63) + (token[63] === "A" ? "B" : "A") },
      status: 400,
      message: MESSAGES.checkInTokenInvalid,
    },
    {
      name: "another server's token",
      form: {
        token: checkInToken("otro-secreto-otro-secreto-otro-secreto", event.id, ana.user.id),
      },
      status: 400,
      message: MESSAGES.checkInTokenInvalid,
    },
    {
      name: "another event's token",
      form: { token: checkInToken(SECRET, other.event.id, other.ana.user.id) },
      status: 409,
      message: MESSAGES.checkInTokenOtherEvent,
    },
    {
      name: "a real token for someone who does not participate",
      form: { token: checkInToken(SECRET, event.id, outsider.user.id) },
      status: 404,
      message: MESSAGES.checkInNotParticipant,
    },
    {
      name: "another event's code",
      form: { codigo: checkInCode(SECRET, other.event.id, other.ana.user.id) },
      status: 404,
      message: MESSAGES.checkInCodeUnknown,
    },
    {
      name: "malformed code",
      form: { codigo: "ABC" },
      status: 400,
      message: MESSAGES.checkInCodeMalformed,
    },
    {
      name: "a long code",
      form: { codigo: "A".repeat(5000) },
      status: 400,
      message: MESSAGES.checkInCodeMalformed,
    },
    {
      name: "SQL in the code",
      form: { codigo: "' or 1=1 --" },
      status: 400,
      message: MESSAGES.checkInCodeMalformed,
    },
    {
      name: "a bad time",
      form: { token, marcadoEn: "ayer" },
      status: 400,
      message: MESSAGES.checkInTimeInvalid,
    },
    {
      name: "an impossible time",
      form: { token, marcadoEn: "2031-02-31T25:00:00Z" },
      status: 400,
      message: MESSAGES.checkInTimeInvalid,
    },
    {
      name: "a repeated token",
      form: { token: [token, token] },
      status: 400,
      message: MESSAGES.checkInNoProof,
    },
  ];
  const before = await snapshot(server.db);
  for (const c of cases) {
    const reply = await admin.client.post(dataPath(event.id), c.form);
    expect(reply.status, c.name).toBe(c.status);
    expect(JSON.parse(reply.text), c.name).toEqual({ ok: false, message: c.message });
  }
  for (const id of [randomUUID(), "no-es-un-id"]) {
    const reply = await admin.client.post(dataPath(id), { token });
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.text)).toEqual({ ok: false, message: MESSAGES.eventNotFound });
  }
  // The page's own form (without JavaScript) names its one action.
  for (const intent of [undefined, "borrar"]) {
    const reply = await admin.client.post(`/admin/eventos/${event.id}/registro`, {
      ...(intent ? { intent } : {}),
      token,
    });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain(MESSAGES.unknownAction);
  }
  expect(await snapshot(server.db)).toEqual(before);
  // A member who left the event after their pass was shown cannot be checked in with it.
  await server.db
    .delete(participations)
    .where(and(eq(participations.eventId, event.id), eq(participations.userId, ana.user.id)));
  const left = await admin.client.post(dataPath(event.id), { token });
  expect(left.status).toBe(404);
  expect(JSON.parse(left.text).message).toBe(MESSAGES.checkInNotParticipant);
});

test("two phones checking in the same person at once count once; a queue sent late keeps the earliest time", async () => {
  const { event, ana, beto } = await eventWithPeople();
  const token = checkInToken(SECRET, event.id, ana.user.id);
  // Five phones scan her at the same moment.
  const moment = new Date();
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      checkIn(server.db, SECRET, admin.user, event.id, { token }, moment),
    ),
  );
  expect(results.filter((r) => r.outcome === "checkedIn")).toHaveLength(1);
  expect(new Set(results.map((r) => r.checkedInAt.toISOString())).size).toBe(1);

  // Beto is marked on a phone without connection at 10:00, and on another, online, at 10:05.
  const joined = (
    await server.db
      .select({ at: participations.joinedAt })
      .from(participations)
      .where(and(eq(participations.eventId, event.id), eq(participations.userId, beto.user.id)))
  )[0]!.at;
  const t0 = new Date(joined.getTime() + 60_000);
  const online = await checkIn(
    server.db,
    SECRET,
    admin.user,
    event.id,
    { token: checkInToken(SECRET, event.id, beto.user.id) },
    new Date(t0.getTime() + 5 * 60_000),
  );
  expect(online.outcome).toBe("checkedIn");
  const late = await checkIn(
    server.db,
    SECRET,
    admin.user,
    event.id,
    { code: checkInCode(SECRET, event.id, beto.user.id), at: t0.toISOString() },
    new Date(t0.getTime() + 30 * 60_000),
  );
  expect(late.outcome).toBe("already");
  expect(late.checkedInAt.toISOString()).toBe(t0.toISOString());
  expect((await row(event.id, beto.user.id))?.at?.toISOString()).toBe(t0.toISOString());

  // A phone's clock can say neither the future nor a time before the member joined.
  const third = await eventWithPeople();
  const now = new Date();
  const future = await checkIn(
    server.db,
    SECRET,
    admin.user,
    third.event.id,
    {
      token: checkInToken(SECRET, third.event.id, third.ana.user.id),
      at: new Date(now.getTime() + 86_400_000).toISOString(),
    },
    now,
  );
  expect(future.checkedInAt.toISOString()).toBe(now.toISOString());
  const past = await checkIn(server.db, SECRET, admin.user, third.event.id, {
    token: checkInToken(SECRET, third.event.id, third.beto.user.id),
    at: "2001-01-01T00:00:00Z",
  });
  const betoJoined = (
    await server.db
      .select({ at: participations.joinedAt })
      .from(participations)
      .where(
        and(
          eq(participations.eventId, third.event.id),
          eq(participations.userId, third.beto.user.id),
        ),
      )
  )[0]!.at;
  expect(past.checkedInAt.toISOString()).toBe(betoJoined.toISOString());
  await expect(
    checkIn(server.db, SECRET, admin.user, third.event.id, { token: "x" }),
  ).rejects.toBeInstanceOf(CheckInError);
});

test("a member sees their pass (QR and code) on the event page once joined and on /profile for upcoming events only", async () => {
  const { event, ana } = await eventWithPeople();
  const code = checkInCode(SECRET, event.id, ana.user.id);
  const shown = `${code.slice(0, 4)}-${code.slice(4)}`;
  const detail = await ana.client.get(`/detalles/${event.id}`);
  expect(detail.text).toContain("Tu código de registro");
  expect(detail.text).toContain(shown);
  expect(detail.text).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Código QR de registro para /);
  const profile = await ana.client.get("/profile");
  expect(profile.text).toContain("Mi código de registro");
  expect(profile.text).toContain(shown);

  // Not for a visitor, nor a member who does not take part, nor an event that has ended.
  const visitor = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  expect(visitor.text).not.toContain("Tu código de registro");
  const outsider = await createMember(server);
  expect((await outsider.client.get(`/detalles/${event.id}`)).text).not.toContain(
    "Tu código de registro",
  );
  const past = await createTestEvent(server.db, admin.user, {
    nombreEvento: `Feria pasada ${randomUUID().slice(0, 6)}`,
    fechaEvento: "2020-01-10",
  });
  await server.db.insert(participations).values({ eventId: past.id, userId: ana.user.id });
  const pastCode = checkInCode(SECRET, past.id, ana.user.id);
  expect((await ana.client.get(`/detalles/${past.id}`)).text).not.toContain(
    "Tu código de registro",
  );
  expect((await ana.client.get("/profile")).text).not.toContain(
    `${pastCode.slice(0, 4)}-${pastCode.slice(4)}`,
  );
});

test("signing out tells the browser to forget what the site stored, the offline check-in list included", async () => {
  const member = await createMember(server);
  const reply = await member.client.post("/logout", {});
  expect(reply.status).toBe(302);
  expect(reply.headers.get("clear-site-data")).toBe('"storage"');
});
