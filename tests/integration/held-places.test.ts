// Issue 35, part B (decision 046): a place at a paid event is held as 'Pendiente de pago' and
// counts against the seats; 100 joins at once for 10 places hold exactly 10; holds that run out,
// by the server's clock, free their places and the waiting list advances exactly, each member
// seated from it with a new hold; a member who leaves before paying frees the place.
import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { events, eventWaitlist, participations, payments, users } from "~/db/schema.server";
import { joinEvent, leaveEvent } from "~/events/participation.server";
import { expireHolds } from "~/payments/expiry.server";
import { usingPostgres } from "../helpers/database";
import { createAdmin, createTestEvent } from "../helpers/events";
import { startTestServer, type TestServer } from "../helpers/server";

const HOUR = 3_600_000;
let server: TestServer;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  server = await startTestServer({ ADMIN_EMAILS: "jefa@example.com" });
  admin = await createAdmin(server);
});
afterAll(() => server?.close());

async function newMembers(count: number, label = "pago") {
  return server.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        issuer: "https://test.invalid",
        subject: `${label}-${randomUUID()}-${i}`,
        email: `${label}-${i}-${randomUUID()}@example.com`,
        nombreCompleto: `${label} ${i}`,
      })),
    )
    .returning();
}

/** A paid event (Bs 30) of `capacity` places, a year ahead, holding places `holdHours`. */
async function paidEvent(capacity: number, holdHours = 48) {
  const event = await createTestEvent(server.db, admin.user, {
    fechaEvento: "2031-05-05",
    capacity: String(capacity),
  });
  await server.db
    .update(events)
    .set({ priceCents: 3000, holdHours })
    .where(eq(events.id, event.id));
  return event;
}

const seatedIds = async (eventId: string) =>
  (
    await server.db
      .select({ userId: participations.userId })
      .from(participations)
      .where(eq(participations.eventId, eventId))
  ).map((r) => r.userId);

const waitingIds = async (eventId: string) =>
  (
    await server.db
      .select({ userId: eventWaitlist.userId })
      .from(eventWaitlist)
      .where(eq(eventWaitlist.eventId, eventId))
      .orderBy(asc(eventWaitlist.createdAt), asc(eventWaitlist.userId))
  ).map((r) => r.userId);

const paymentsOf = (eventId: string) =>
  server.db.select().from(payments).where(eq(payments.eventId, eventId));

test(`100 members joining a paid event of 10 places at once: exactly 10 held 'Pendiente de pago', 90 waiting in order (${usingPostgres ? "PostgreSQL" : "embedded"})`, async () => {
  const event = await paidEvent(10);
  const members = await newMembers(100);
  const now = new Date();
  const outcomes = await Promise.all(members.map((m) => joinEvent(server.db, m, event.id, now)));
  expect(outcomes.filter((o) => o === "joined")).toHaveLength(10);
  const seated = await seatedIds(event.id);
  const waiting = await waitingIds(event.id);
  expect(seated).toHaveLength(10);
  expect(waiting).toHaveLength(90);
  const held = await paymentsOf(event.id);
  expect(held).toHaveLength(10);
  expect(new Set(held.map((p) => p.userId))).toEqual(new Set(seated));
  for (const p of held) {
    expect(p).toMatchObject({ status: "pending", amountCents: 3000, subjectKind: "registration" });
    expect(p.heldUntil!.getTime()).toBe(now.getTime() + 48 * HOUR);
    // A short reference without ambiguous characters (no I, L, O, U).
    expect(p.reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
  }
  expect(new Set(held.map((p) => p.reference)).size).toBe(10);
  if (!usingPostgres) expect(waiting).toEqual(members.slice(10).map((m) => m.id));
  // Joining again changes nothing: one live payment per registration.
  await joinEvent(
    server.db,
    members.find((m) => seated.includes(m.id))!,
    event.id,
    now,
  );
  expect(await paymentsOf(event.id)).toHaveLength(10);
});

test("holds that run out by the server's clock free their places: the first 10 waiting get them, each with a new hold, and the rest keep their order", async () => {
  const event = await paidEvent(10, 24);
  const members = await newMembers(30, "vence");
  const start = new Date();
  for (const m of members) await joinEvent(server.db, m, event.id, start);
  const firstTen = members.slice(0, 10).map((m) => m.id);
  expect((await seatedIds(event.id)).sort()).toEqual([...firstTen].sort());
  // One of them sent a receipt: their place stays held until a treasurer decides.
  await server.db
    .update(payments)
    .set({ status: "submitted", transactionNumber: "123456789", submittedAt: start })
    .where(and(eq(payments.eventId, event.id), eq(payments.userId, firstTen[0]!)));

  // Not yet: an hour before the end of the hold nothing moves.
  expect(await expireHolds(server.db, new Date(start.getTime() + 23 * HOUR))).toBe(0);
  expect((await seatedIds(event.id)).sort()).toEqual([...firstTen].sort());

  const later = new Date(start.getTime() + 24 * HOUR);
  expect(await expireHolds(server.db, later)).toBe(9);
  const next = members.slice(10, 19).map((m) => m.id);
  expect((await seatedIds(event.id)).sort()).toEqual([firstTen[0]!, ...next].sort());
  expect(await waitingIds(event.id)).toEqual(members.slice(19).map((m) => m.id));
  const rows = await paymentsOf(event.id);
  const byUser = (id: string) => rows.filter((p) => p.userId === id);
  for (const id of firstTen.slice(1)) expect(byUser(id).map((p) => p.status)).toEqual(["expired"]);
  expect(byUser(firstTen[0]!).map((p) => p.status)).toEqual(["submitted"]);
  for (const id of next) {
    const [hold] = byUser(id);
    expect(hold).toMatchObject({ status: "pending" });
    expect(hold!.heldUntil!.getTime()).toBe(later.getTime() + 24 * HOUR);
  }
  // Run again at the same moment: nothing more to do.
  expect(await expireHolds(server.db, later)).toBe(0);

  // Someone whose hold expired may join again: a new hold (the expired one stays as history).
  const again = members[1]!;
  expect(await joinEvent(server.db, again, event.id, later)).toBe("waiting");
});

test("a member who leaves before paying frees the place: the payment is cancelled and the first waiting gets a hold", async () => {
  const event = await paidEvent(1);
  const [first, second] = await newMembers(2, "sale");
  const now = new Date();
  await joinEvent(server.db, first!, event.id, now);
  await joinEvent(server.db, second!, event.id, now);
  await leaveEvent(server.db, first!, event.id, now);
  expect(await seatedIds(event.id)).toEqual([second!.id]);
  const rows = await paymentsOf(event.id);
  expect(rows.find((p) => p.userId === first!.id)!.status).toBe("cancelled");
  expect(rows.find((p) => p.userId === second!.id)!.status).toBe("pending");
});

test("a free event holds nothing: no payment is opened", async () => {
  const event = await createTestEvent(server.db, admin.user, { fechaEvento: "2031-06-06" });
  const [one] = await newMembers(1, "gratis");
  await joinEvent(server.db, one!, event.id);
  expect(await paymentsOf(event.id)).toEqual([]);
  expect(
    await server.db
      .select()
      .from(payments)
      .where(inArray(payments.userId, [one!.id])),
  ).toEqual([]);
});
