// Joining and leaving events (§4, §8): messages, the ended rule in SITE_TIMEZONE, concurrency,
// and the profile's 'Eventos Participando'.
// The server's own time zone must not matter: this file runs with TZ far from La Paz (and puts
// the worker's back afterwards: the next file in this worker shares its process).
const workerTimeZone = process.env.TZ;
process.env.TZ = "Asia/Tokyo";

import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MESSAGES } from "~/messages";
import { zonedToInstant } from "~/kernel/time";
import { events, participations, users, type User } from "~/db/schema.server";
import { eventState, hasEnded } from "~/events/event.server";
import { EventEndedError, joinEvent, leaveEvent } from "~/events/participation.server";
import { failOnConsoleError } from "../helpers/console";
import { BrowserClient, pathOf } from "../helpers/browser-client";
import { alertsIn, createAdmin, createMember, createTestEvent, landOn } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";
import { signIn } from "../helpers/sign-in";

let server: TestServer;
let admin: { client: BrowserClient; user: User };

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(async () => {
  await server?.close();
  if (workerTimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = workerTimeZone;
});

failOnConsoleError();

async function participationCount(eventId: string, userId?: string) {
  const [row] = await server.db
    .select({ n: sql<number>`count(*)::int` })
    .from(participations)
    .where(
      userId
        ? and(eq(participations.eventId, eventId), eq(participations.userId, userId))
        : eq(participations.eventId, eventId),
    );
  return row!.n;
}

function buttonOf(html: string): string {
  for (const label of [
    "Dejar de Participar",
    "Participar",
    "Evento Finalizado",
    "Inicia Sesión para Participar",
  ]) {
    if (new RegExp(`>${label}</(a|button)>`).test(html)) return label;
  }
  return "";
}

test("the server's time zone in this file is not the site's", () => {
  expect(new Date(Date.UTC(2025, 11, 6, 12)).getTimezoneOffset()).toBe(-540);
});

test("an event on 6 December 2025 from 19:00 to 21:00 in America/La_Paz is upcoming until 23:00 UTC, ongoing until 01:00 UTC, ended from then on", async () => {
  const startsAt = zonedToInstant("2025-12-06", "19:00", "America/La_Paz");
  const endsAt = zonedToInstant("2025-12-06", "21:00", "America/La_Paz");
  expect(startsAt.toISOString()).toBe("2025-12-06T23:00:00.000Z");
  const at = (iso: string) => eventState({ startsAt, endsAt }, new Date(iso));
  expect(at("2025-12-06T22:59:59.999Z")).toBe("upcoming");
  expect(at("2025-12-06T23:00:00.000Z")).toBe("ongoing");
  expect(at("2025-12-07T00:59:59.999Z")).toBe("ongoing");
  expect(at("2025-12-07T01:00:00.000Z")).toBe("ended");
  expect(hasEnded({ startsAt, endsAt }, new Date("2025-12-07T00:59:59Z"))).toBe(false);
  expect(hasEnded({ startsAt, endsAt }, new Date("2025-12-07T01:00:01Z"))).toBe(true);

  // The same through the model that decides joins, with the event published by an admin.
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2025-12-06",
    horaEvento: "19:00",
    fechaFin: "2025-12-06",
    horaFin: "21:00",
  });
  expect(event.startsAt.toISOString()).toBe("2025-12-06T23:00:00.000Z");
  expect(event.endsAt.toISOString()).toBe("2025-12-07T01:00:00.000Z");
  const { user } = await createMember(server);
  await joinEvent(server.db, user, event.id, new Date("2025-12-06T22:59:59Z"));
  expect(await participationCount(event.id, user.id)).toBe(1);
  // In progress: joining is still open.
  const late = await createMember(server);
  await joinEvent(server.db, late.user, event.id, new Date("2025-12-07T00:59:59Z"));
  expect(await participationCount(event.id, late.user.id)).toBe(1);
  const other = await createMember(server);
  await expect(
    joinEvent(server.db, other.user, event.id, new Date("2025-12-07T01:00:00Z")),
  ).rejects.toBeInstanceOf(EventEndedError);
  expect(await participationCount(event.id, other.user.id)).toBe(0);
});

test("a member joins with '¡Te has registrado…', sees 'Dejar de Participar' and the event in the profile, then leaves", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Taller de Sumo",
    fechaEvento: "2031-01-10",
  });
  const { client, user } = await createMember(server);
  const before = await client.get(`/detalles/${event.id}`);
  expect(buttonOf(before.text)).toBe("Participar");

  const joined = await client.post(`/detalles/${event.id}`, { intent: "join" });
  expect(joined.status).toBe(302);
  expect(pathOf(joined.location)).toBe(`/detalles/${event.id}`);
  const page = await landOn(client, joined);
  expect(alertsIn(page.text)).toEqual([MESSAGES.participationJoined]);
  expect(buttonOf(page.text)).toBe("Dejar de Participar");
  expect(await participationCount(event.id, user.id)).toBe(1);

  const profile = await client.get("/profile");
  expect(profile.text).toContain("Taller de Sumo");
  expect(profile.text).toContain(`href="/detalles/${event.id}"`);
  expect(profile.text).toContain("Ver Detalles");

  const left = await client.post(`/detalles/${event.id}`, { intent: "leave" });
  const after = await landOn(client, left);
  expect(alertsIn(after.text)).toEqual([MESSAGES.participationLeft]);
  expect(buttonOf(after.text)).toBe("Participar");
  expect(await participationCount(event.id, user.id)).toBe(0);
  expect((await client.get("/profile")).text).toContain(
    "No estás participando en ningún evento aún.",
  );
});

test("an ended event shows 'Evento Finalizado' and the server refuses to join it whatever the client sends", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2024-01-01" });
  const { client, user } = await createMember(server);
  const page = await client.get(`/detalles/${event.id}`);
  expect(page.text).toMatch(
    /<button type="button" class="button button-ghost" disabled="">Evento Finalizado<\/button>/,
  );
  const reply = await client.post(`/detalles/${event.id}`, { intent: "join" });
  expect(reply.status).toBe(409);
  expect(alertsIn(reply.text)).toEqual([MESSAGES.eventEnded]);
  expect(await participationCount(event.id, user.id)).toBe(0);
  const visitor = await new BrowserClient(server.url).get(`/detalles/${event.id}`);
  expect(buttonOf(visitor.text)).toBe("Evento Finalizado");
});

test("after an event has ended a participant cannot leave it: 409 with a Spanish message, the page offers nothing to press, the record stays", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2025-12-06",
    horaEvento: "19:00",
  });
  const { client, user } = await createMember(server);
  await joinEvent(server.db, user, event.id, new Date("2025-12-06T22:00:00Z"));
  expect(await participationCount(event.id, user.id)).toBe(1);

  await expect(
    leaveEvent(server.db, user, event.id, new Date("2025-12-07T01:00:00Z")),
  ).rejects.toBeInstanceOf(EventEndedError);
  const page = await client.get(`/detalles/${event.id}`);
  expect(buttonOf(page.text)).toBe("Evento Finalizado");
  expect(page.text).not.toContain('value="leave"');
  const reply = await client.post(`/detalles/${event.id}`, { intent: "leave" });
  expect(reply.status).toBe(409);
  expect(alertsIn(reply.text)).toEqual([MESSAGES.eventEndedLeave]);
  expect(await participationCount(event.id, user.id)).toBe(1);
  // Before the end (the event in progress since 23:00 UTC) leaving still works.
  await leaveEvent(server.db, user, event.id, new Date("2025-12-07T00:59:59Z"));
  expect(await participationCount(event.id, user.id)).toBe(0);
});

test("a visitor sees 'Inicia Sesión para Participar'; posting a join sends them to /login with the §8 message, and they come back after signing in", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-02-02" });
  const { user } = await createMember(server, `vuelve-${randomUUID()}@example.com`);
  const visitor = new BrowserClient(server.url);
  const page = await visitor.get(`/detalles/${event.id}`);
  expect(buttonOf(page.text)).toBe("Inicia Sesión para Participar");
  expect(page.text).toContain(`href="/login?redirectTo=%2Fdetalles%2F${event.id}"`);

  const reply = await visitor.post(`/detalles/${event.id}`, { intent: "join" });
  expect(reply.status).toBe(302);
  expect(pathOf(reply.location)).toBe(`/login?redirectTo=%2Fdetalles%2F${event.id}`);
  const login = await landOn(visitor, reply);
  expect(alertsIn(login.text)).toEqual([MESSAGES.participationLoginRequired]);
  expect(await participationCount(event.id)).toBe(0);

  const back = await signIn(visitor, {
    email: user.email,
    name: "x",
    redirectTo: `/detalles/${event.id}`,
  });
  expect(back).toBe(`/detalles/${event.id}`);
});

test("an unknown intent changes nothing", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-02-02" });
  const { client } = await createMember(server);
  const reply = await client.post(`/detalles/${event.id}`, { intent: "participar-mucho" });
  expect(reply.status).toBe(400);
  expect(await participationCount(event.id)).toBe(0);
});

test("100 different members joining one event at once give exactly 100 participations", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-03-03" });
  const members = await server.db
    .insert(users)
    .values(
      Array.from({ length: 100 }, (_, i) => ({
        issuer: "https://test.invalid",
        subject: `masivo-${randomUUID()}-${i}`,
        email: `masivo-${i}-${randomUUID()}@example.com`,
        nombreCompleto: `Masivo ${i}`,
      })),
    )
    .returning();
  await Promise.all(members.map((m) => joinEvent(server.db, m, event.id)));
  expect(await participationCount(event.id)).toBe(100);
});

test("one member sending 20 joins at once over HTTP gives exactly one participation", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-04-04" });
  const { client, user } = await createMember(server);
  const replies = await Promise.all(
    Array.from({ length: 20 }, () => client.post(`/detalles/${event.id}`, { intent: "join" })),
  );
  expect(replies.map((r) => r.status)).toEqual(Array(20).fill(302));
  expect(await participationCount(event.id, user.id)).toBe(1);
});

test("20 members joining over HTTP at once are all counted", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-05-05" });
  const members = await Promise.all(Array.from({ length: 20 }, () => createMember(server)));
  const replies = await Promise.all(
    members.map(({ client }) => client.post(`/detalles/${event.id}`, { intent: "join" })),
  );
  expect(replies.every((r) => r.status === 302)).toBe(true);
  expect(await participationCount(event.id)).toBe(20);
});

test("when an admin deletes an event it leaves the member's profile", async () => {
  const event = await createTestEvent(server.db, admin.user, {
    nombreEvento: "Se va a borrar",
    fechaEvento: "2031-06-06",
  });
  const { client } = await createMember(server);
  await client.post(`/detalles/${event.id}`, { intent: "join" });
  await client.get(`/detalles/${event.id}`);
  expect((await client.get("/profile")).text).toContain("Se va a borrar");
  await admin.client.post("/admin", { intent: "delete", eventId: event.id });
  expect((await client.get("/profile")).text).not.toContain("Se va a borrar");
  expect(await server.db.select().from(events).where(eq(events.id, event.id))).toHaveLength(0);
});
