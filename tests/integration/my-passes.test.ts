// 'Mis entradas' (/mis-entradas, decision 050): its loader asked directly with real Requests on a
// fresh database — who may (a visitor goes to sign in; a member sees only their own passes), what
// is listed (events not over, their sessions to come, place, payment state, waiting lists,
// certificates; not an event ended, deleted or left) — and over HTTP what keeps it on the phone
// and what makes the phone forget it: its headers, service worker and manifest, sign-out and
// another member's sign-in.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { setCheckedIn } from "~/attendance/attendance.server";
import { checkInCode, checkInToken } from "~/attendance/check-in.server";
import type { loadMyPasses } from "~/attendance/my-passes.server";
import { formatCheckInCode } from "~/attendance/check-in";
import { events, eventSessions, payments, type User } from "~/db/schema.server";
import { deleteEvent } from "~/events/event-commands.server";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { cancelSession } from "~/events/event-sessions.server";
import { decidePayment } from "~/payments/review.server";
import { PASS_NOT_VALID } from "~/payments/place-validity";
import { createSession } from "~/members/session.server";
import * as passesRoute from "~/routes/profile/passes";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { failOnConsoleError } from "../helpers/console";
import { fourEveningCourse, LA_PAZ, LONG_AGO } from "../helpers/courses";
import {
  ADMIN_EMAIL,
  createAdmin,
  createMember,
  createTestEvent,
  openForCheckIn,
} from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { signIn } from "../helpers/sign-in";

let server: TestServer;
let admin: User;
let adminClient: BrowserClient;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: ADMIN_EMAIL });
  const made = await createAdmin(server);
  admin = made.user;
  adminClient = made.client;
});
afterAll(() => server?.close());

failOnConsoleError();

/** The page's clock: before the test events of 2030-12 and the course of June 2030. */
const NOW = new Date("2030-06-01T16:00:00Z");

async function cookieOf(user: User): Promise<string> {
  return (await createSession(server.db, user.id, { secure: false })).split(";")[0]!;
}

/** /mis-entradas's loader, asked as `cookie` (or a visitor) at `now`. */
async function askPasses(cookie: string | null, now = NOW) {
  const headers: Record<string, string> = {};
  if (cookie) headers.Cookie = cookie;
  const request = new Request(new URL("/mis-entradas", server.url), { headers });
  const context = {
    db: server.db,
    config: server.config,
    now: () => now,
    personal: () => {},
    // Asked at the site's own address, as a browser would.
    requestSeen: () => ({ host: server.url.hostname, protocol: "http", forwardedFor: null }),
  };
  try {
    const result = (await passesRoute.loader({ request, params: {}, context } as never)) as {
      data: Awaited<ReturnType<typeof loadMyPasses>> & { updatedAt: string };
      init: { headers: Headers };
    };
    return { status: 200, page: result.data, headers: new Headers(result.init.headers) };
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, location: thrown.headers.get("Location"), page: null };
  }
}

async function member(name: string) {
  const made = await createMember(server, `p-${randomUUID()}@example.com`, name);
  return { ...made, cookie: await cookieOf(made.user) };
}

const event = (overrides: Record<string, string> = {}) =>
  createTestEvent(server.db, admin, {
    nombreEvento: `Evento ${randomUUID().slice(0, 8)}`,
    ...overrides,
  });

/** Moves a one-session event to have ended before NOW. */
async function endBefore(eventId: string) {
  const startsAt = new Date("2030-05-10T23:00:00Z");
  const endsAt = new Date("2030-05-11T01:00:00Z");
  await server.db.update(events).set({ startsAt, endsAt }).where(eq(events.id, eventId));
  await server.db
    .update(eventSessions)
    .set({ startsAt, endsAt })
    .where(eq(eventSessions.eventId, eventId));
}

test("a visitor is sent to sign in, and comes back to /mis-entradas afterwards", async () => {
  const asked = await askPasses(null);
  expect(asked.status).toBe(302);
  expect(asked.location).toBe("/login?redirectTo=%2Fmis-entradas");
  // A cookie of no session is a visitor too.
  const stale = await askPasses("ayllu_session=no-es-una-sesion");
  expect(stale.status).toBe(302);
  expect(stale.location).toBe("/login?redirectTo=%2Fmis-entradas");
});

test("a member sees their passes, and only theirs: each QR is their own token, each code theirs", async () => {
  const ana = await member("Ana Mamani");
  const beto = await member("Beto Flores");
  const both = await event({ ubicacionEspecifica: "Aula 3" });
  const anas = await event();
  const betos = await event();
  for (const [who, eventId] of [
    [ana, both.id],
    [ana, anas.id],
    [beto, both.id],
    [beto, betos.id],
  ] as const) {
    await joinEvent(server.db, who.user, eventId, LONG_AGO);
  }
  const secret = server.config.sessionSecret;

  const asked = await askPasses(ana.cookie);
  expect(asked.status).toBe(200);
  const page = asked.page!;
  expect(page.passes.map((p) => p.eventId).sort()).toEqual([both.id, anas.id].sort());
  for (const pass of page.passes) {
    expect(pass.state).toBe("confirmed");
    expect(pass.pass).toMatchObject({
      valid: true,
      code: formatCheckInCode(checkInCode(secret, pass.eventId, ana.user.id)),
    });
    expect(pass.pass!.valid && pass.pass!.qr).toContain(
      `aria-label="Código QR de registro para ${pass.nombreEvento}"`,
    );
  }
  expect(page.passes.find((p) => p.eventId === both.id)!.place).toBe("Bolivia, La Paz — Aula 3");

  // Nothing of Beto's: not his event, not his code or token for the event they share.
  const text = JSON.stringify(page);
  expect(text).not.toContain(betos.id);
  expect(text).not.toContain(formatCheckInCode(checkInCode(secret, both.id, beto.user.id)));
  expect(text).not.toContain(beto.user.id);
  const betoPage = (await askPasses(beto.cookie)).page!;
  expect(betoPage.passes.map((p) => p.eventId).sort()).toEqual([both.id, betos.id].sort());
  expect(JSON.stringify(betoPage)).not.toContain(
    formatCheckInCode(checkInCode(secret, both.id, ana.user.id)),
  );
  // The token is never shown as text, only in the QR (the e2e test decodes it).
  expect(text).not.toContain(checkInToken(secret, both.id, ana.user.id));
});

test("upcoming only: an ended event is not a pass (its certificate is listed), a deleted or left event is gone", async () => {
  const carla = await member("Carla Quispe");
  const ended = await event();
  const deleted = await event();
  const left = await event();
  const ahead = await event();
  for (const e of [ended, deleted, left, ahead])
    await joinEvent(server.db, carla.user, e.id, LONG_AGO);
  await endBefore(ended.id);
  // Checked in while its door was open (decision 075).
  const whileOpen = new Date("2030-05-10T23:30:00Z");
  await setCheckedIn(server.db, admin, ended.id, carla.user.id, true, whileOpen);
  await deleteEvent(server.db, admin, deleted.id);
  await leaveEvent(server.db, carla.user, left.id, LONG_AGO);

  const page = (await askPasses(carla.cookie)).page!;
  expect(page.passes.map((p) => p.eventId)).toEqual([ahead.id]);
  expect(page.certificates).toHaveLength(1);
  const certificate = page.certificates[0]!;
  expect(certificate.eventId).toBe(ended.id);
  expect(certificate.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  expect(certificate.verifyUrl).toBe(
    `${server.config.publicUrl.origin}/certificados/${certificate.code}`,
  );

  // An ended event without attendance gives no certificate; a pass lasts until the event ends.
  const dario = await member("Darío Choque");
  const missed = await event();
  await joinEvent(server.db, dario.user, missed.id, LONG_AGO);
  await endBefore(missed.id);
  const darios = (await askPasses(dario.cookie)).page!;
  expect(darios.passes).toEqual([]);
  expect(darios.certificates).toEqual([]);
  const during = (await askPasses(carla.cookie, new Date("2030-05-11T00:00:00Z"))).page!;
  expect(during.passes.map((p) => p.eventId)).toContain(ended.id);
});

test("each place says whether it is confirmed, paid or waiting for a payment; the waiting list shows its position", async () => {
  const eva = await member("Eva Torrez");
  const other = await member("Fabio Rojas");
  const paid = await event();
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, paid.id));
  const paidToo = await event();
  await server.db.update(events).set({ priceCents: 5000 }).where(eq(events.id, paidToo.id));
  const full = await event({ capacity: "1" });
  const virtual = await createTestEvent(
    server.db,
    admin,
    { nombreEvento: `Virtual ${randomUUID().slice(0, 8)}`, tipoEvento: "Virtual" },
    ["https://meet.jit.si/ayllu"],
  );
  await joinEvent(server.db, eva.user, paid.id, LONG_AGO);
  await joinEvent(server.db, eva.user, paidToo.id, LONG_AGO);
  await joinEvent(server.db, other.user, full.id, LONG_AGO);
  await joinEvent(server.db, eva.user, full.id, LONG_AGO);
  await joinEvent(server.db, eva.user, virtual.id, LONG_AGO);
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.eventId, paidToo.id), eq(payments.userId, eva.user.id)));
  await decidePayment(server.db, admin, payment!.id, "confirm", null, LONG_AGO);

  const page = (await askPasses(eva.cookie)).page!;
  const of = (id: string) => page.passes.find((p) => p.eventId === id)!;
  expect(of(paid.id).state).toBe("pending");
  expect(of(paid.id).heldUntil).not.toBeNull();
  expect(of(paidToo.id).state).toBe("paid");
  expect(of(paidToo.id).heldUntil).toBeNull();
  expect(of(virtual.id).state).toBe("confirmed");
  expect(of(virtual.id).pass).toBeNull();
  expect(page.passes.some((p) => p.eventId === full.id)).toBe(false);
  expect(page.waiting).toEqual([expect.objectContaining({ eventId: full.id, position: 1 })]);
});

test("a course lists its sessions still to come, a cancelled one marked, those over left out", async () => {
  const gina = await member("Gina Vargas");
  // Monday 3 June 2030 to Thursday 6, 19:00 to 21:00 in La Paz.
  const { event: course, sessions } = await fourEveningCourse(server.db, admin, "2030-06-03");
  await joinEvent(server.db, gina.user, course.id, LONG_AGO);
  await cancelSession(server.db, admin, course.id, sessions[2]!.id, LA_PAZ, LONG_AGO);

  const before = (await askPasses(gina.cookie)).page!.passes[0]!;
  expect(before.sessions.map((s) => [s.id, s.cancelled])).toEqual(
    sessions.map((s, i) => [s.id, i === 2]),
  );
  // On Tuesday night the first two are over.
  const tuesdayNight = new Date("2030-06-05T02:00:00Z");
  const later = (await askPasses(gina.cookie, tuesdayNight)).page!.passes[0]!;
  expect(later.sessions.map((s) => s.id)).toEqual([sessions[2]!.id, sessions[3]!.id]);
  expect(later.pass).not.toBeNull();
});

test("the page is never stored by the server; it marks whose copy the device keeps", async () => {
  const hugo = await member("Hugo Apaza");
  const asked = await askPasses(hugo.cookie);
  expect(asked.headers!.get("Cache-Control")).toBe("no-store");
  expect(asked.headers!.get("Set-Cookie")).toMatch(
    /^ayllu_copia=[\w-]{22}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
  );
  expect(asked.page!.updatedAt).toBe(NOW.toISOString());

  // Over HTTP: the page's own policy lets it start its worker; other pages' do not.
  const client = new BrowserClient(server.url);
  client.cookies.set("ayllu_session", hugo.cookie.split("=")[1]!);
  const first = await client.get("/mis-entradas");
  const second = await client.get("/mis-entradas");
  for (const reply of [first, second]) {
    expect(reply.status).toBe(200);
    expect(reply.headers.get("Cache-Control")).toBe("no-store");
    expect(reply.headers.get("Content-Security-Policy")).toContain("worker-src 'self'");
    expect(reply.headers.get("Permissions-Policy")).toContain("camera=()");
  }
  expect(first.text).toContain('rel="manifest" href="/mis-entradas.webmanifest"');
  expect(first.headers.get("Content-Security-Policy")).not.toContain("wasm-unsafe-eval");
  for (const other of [
    "/profile",
    "/mis-entradas/sw.js",
    "/mis-entradas.webmanifest",
    "/mis-entradas/x",
  ]) {
    const reply = await client.get(other);
    expect(reply.headers.get("Content-Security-Policy"), other).toContain("worker-src 'none'");
  }
});

test("its service worker may only ever control /mis-entradas, and its manifest names the community", async () => {
  const client = new BrowserClient(server.url);
  const worker = await client.get("/mis-entradas/sw.js");
  expect(worker.status).toBe(200);
  expect(worker.headers.get("Content-Type")).toMatch(/^text\/javascript/);
  expect(worker.headers.get("Service-Worker-Allowed")).toBe("/mis-entradas");
  expect(worker.text).toContain('"/mis-entradas/sw.js": {');
  // The check-in page's worker is the same script, at its own address, with the scope of its own.
  const checkIn = await client.get("/registro-sw.js");
  expect(checkIn.text).toBe(worker.text);
  expect(checkIn.headers.get("Service-Worker-Allowed")).toBeNull();

  const reply = await client.get("/mis-entradas.webmanifest");
  expect(reply.headers.get("Content-Type")).toMatch(/^application\/manifest\+json/);
  const manifest = JSON.parse(reply.text);
  expect(manifest).toMatchObject({
    name: "Mis entradas — Ayllu",
    short_name: "Ayllu",
    start_url: "/mis-entradas",
    scope: "/mis-entradas",
    display: "standalone",
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  for (const icon of manifest.icons as Array<{ src: string }>) {
    expect(fs.existsSync(path.join(import.meta.dirname, "../../public", icon.src))).toBe(true);
    const served = await client.get(icon.src);
    expect(served.status, icon.src).toBe(200);
  }
});

test("signing out, everywhere or by deleting the account, makes the device forget what the site stored", async () => {
  for (const how of ["logout", "everywhere", "delete"] as const) {
    const who = await member(`Iris ${how}`);
    const client = new BrowserClient(server.url);
    client.cookies.set("ayllu_session", who.cookie.split("=")[1]!);
    await client.get("/mis-entradas");
    expect(client.cookies.has("ayllu_copia")).toBe(true);
    const reply =
      how === "logout"
        ? await client.post("/logout", {})
        : how === "everywhere"
          ? await client.post("/profile", { intent: "logoutEverywhere" })
          : await client.post("/profile", { intent: "deleteAccount", confirmar: "eliminar" });
    expect(reply.status, how).toBe(302);
    expect(reply.headers.get("Clear-Site-Data"), how).toBe('"storage"');
    expect(client.cookies.has("ayllu_copia"), how).toBe(false);
    expect(client.cookies.has("ayllu_session"), how).toBe(false);
  }
});

test("another member's sign-in on the device makes it forget the first one's passes; the same member's does not", async () => {
  const email = `julia-${randomUUID()}@example.com`;
  const julia = await createMember(server, email, "Julia Poma");
  const client = new BrowserClient(server.url);
  client.cookies.set("ayllu_session", (await cookieOf(julia.user)).split("=")[1]!);
  await client.get("/mis-entradas");
  // Her session ends without this device signing out (it expired, or ended elsewhere).
  endSessions(client);

  // She signs in again: her own copy stays.
  const again = await lastSignInReply(client, email);
  expect(again.headers.get("Clear-Site-Data")).toBeNull();
  expect(client.cookies.has("ayllu_copia")).toBe(true);

  // Someone else signs in on the same phone, through the provider…
  endSessions(client);
  const other = await lastSignInReply(client, `kevin-${randomUUID()}@example.com`);
  expect(other.headers.get("Clear-Site-Data")).toBe('"storage"');
  expect(client.cookies.has("ayllu_copia")).toBe(false);

  // …or by an e-mailed link.
  client.cookies.set("ayllu_session", (await cookieOf(julia.user)).split("=")[1]!);
  await client.get("/mis-entradas");
  endSessions(client);
  const asked = await client.post("/login/correo", { email: `luis-${randomUUID()}@example.com` });
  const link = /href="(http[^"]*\/login\/enlace\/[^"]+)"/.exec(asked.text)?.[1];
  expect(link).toBeTruthy();
  const byLink = await client.get(link!.replaceAll("&amp;", "&"));
  expect(byLink.status).toBe(302);
  expect(byLink.headers.get("Clear-Site-Data")).toBe('"storage"');
  expect(client.cookies.has("ayllu_copia")).toBe(false);
});

/** The sessions on the device end, the site's and the provider's; the mark of its copy stays. */
function endSessions(client: BrowserClient) {
  for (const name of client.cookies.keys()) if (name !== "ayllu_copia") client.cookies.delete(name);
}

/** Signs in through the development provider and returns the callback's answer. */
async function lastSignInReply(client: BrowserClient, email: string) {
  const replies: Array<Awaited<ReturnType<BrowserClient["get"]>>> = [];
  const get = client.get.bind(client);
  client.get = async (target, headers) => {
    const reply = await get(target, headers);
    replies.push(reply);
    return reply;
  };
  try {
    await signIn(client, { email });
  } finally {
    client.get = get;
  }
  const callback = replies.findLast((r) => pathOf(r.url)?.startsWith("/auth/callback"));
  expect(callback?.status).toBe(302);
  return callback!;
}

test("a place waiting for its payment is no pass yet: greyed with its reason and no code on every page that shows it, and the door refuses it with that reason until treasury confirms", async () => {
  const eva = await member("Eva Torrez");
  const paid = await event();
  await server.db.update(events).set({ priceCents: 3000 }).where(eq(events.id, paid.id));
  await openForCheckIn(server.db, paid.id);
  await joinEvent(server.db, eva.user, paid.id);
  const secret = server.config.sessionSecret;
  const code = formatCheckInCode(checkInCode(secret, paid.id, eva.user.id));
  const now = () => new Date();

  // Held, not paid: 'pago pendiente'.
  const pending = (await askPasses(eva.cookie, now())).page!;
  expect(pending.passes.find((p) => p.eventId === paid.id)!.pass).toEqual({
    valid: false,
    reason: PASS_NOT_VALID.pending,
  });
  // Sent for review: 'pago por revisar', on 'Mis entradas', the event's page and the profile.
  const sent = await eva.client.post(`/detalles/${paid.id}/pago`, {
    intent: "transaction",
    transactionNumber: "TRX-0042",
  });
  expect(sent.status).toBe(302);
  const page = (await askPasses(eva.cookie, now())).page!;
  expect(page.passes.find((p) => p.eventId === paid.id)!.pass).toEqual({
    valid: false,
    reason: PASS_NOT_VALID.submitted,
  });
  expect(JSON.stringify(page)).not.toContain(code);
  for (const path of [`/detalles/${paid.id}`, "/profile"]) {
    const html = (await eva.client.get(path)).text;
    expect(html, path).toContain(PASS_NOT_VALID.submitted);
    expect(html, path).toContain("Tu código QR aparecerá aquí cuando tesorería confirme el pago.");
    expect(html, path).not.toContain(code);
    expect(html, path).not.toContain("Código QR de registro");
  }

  // The door: the list says why, and a check-in by her code (as a phone would send it once the
  // reason is not read) is refused with it.
  const door = `/admin/eventos/${paid.id}/registro/datos`;
  const list = (await adminClient.get(door)).text;
  const entry = (
    JSON.parse(list) as { participants: { userId: string; notValid: string }[] }
  ).participants.find((p) => p.userId === eva.user.id);
  expect(entry?.notValid).toBe(PASS_NOT_VALID.submitted);
  const refused = await adminClient.post(door, { codigo: code });
  expect(refused.status).toBe(409);
  expect(JSON.parse(refused.text)).toEqual({
    ok: false,
    message: `Eva Torrez: ${PASS_NOT_VALID.submitted}`,
  });

  // Confirmed: the pass is whole, and the door lets her in.
  const [payment] = await server.db
    .select()
    .from(payments)
    .where(and(eq(payments.eventId, paid.id), eq(payments.userId, eva.user.id)));
  await decidePayment(server.db, admin, payment!.id, "confirm", null);
  const confirmed = (await askPasses(eva.cookie, now())).page!;
  expect(confirmed.passes.find((p) => p.eventId === paid.id)!.pass).toMatchObject({
    valid: true,
    code,
  });
  expect((await eva.client.get(`/detalles/${paid.id}`)).text).toContain(code);
  const admitted = await adminClient.post(door, { codigo: code });
  expect(admitted.status).toBe(200);
  expect(JSON.parse(admitted.text)).toMatchObject({ ok: true, outcome: "checkedIn" });
});
