// Held places (decision 048): a place taken at a paid event is held as 'Pendiente de pago' for
// the event's hold hours, and counts against its seats (it is a participation). Called inside the
// transaction that seats the members, which holds the event row's lock.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, payments } from "~/db/schema.server";
import { queuePaymentMail } from "./mails.server";

const HOUR = 3_600_000;

/** The states in which a registration's payment is alive: its place is held or paid. */
export const LIVE_STATUSES = ["pending", "submitted", "refused", "confirmed", "waived"] as const;

/**
 * Opens a payment, pending until `now` + the event's hold hours, for each member just seated at
 * the event, and queues the mail that tells them how to pay; nothing when the event is free.
 * Returns the members whose place is now held.
 */
export async function holdPlaces(
  tx: Db,
  eventId: string,
  userIds: readonly string[],
  now: Date,
  options: { fromWaitlist?: boolean } = {},
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const [event] = await tx
    .select({ priceCents: events.priceCents, holdHours: events.holdHours })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event || event.priceCents === 0) return [];
  const heldUntil = new Date(now.getTime() + event.holdHours * HOUR);
  const held = await tx
    .insert(payments)
    .values(
      userIds.map((userId) => ({
        subjectKind: "registration",
        eventId,
        userId,
        amountCents: event.priceCents,
        heldUntil,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: payments.id, userId: payments.userId });
  for (const row of held) await queuePaymentMail(tx, "paymentPending", row.id, options);
  return held.flatMap((row) => (row.userId ? [row.userId] : []));
}

/**
 * The member left the event: a payment not made is cancelled (the place is no longer held). A
 * payment made stays confirmed, the record of money received, marked with when they left: a
 * refund is then the treasurer's to record.
 */
export async function releasePlace(
  tx: Db,
  eventId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const registration = and(
    eq(payments.eventId, eventId),
    eq(payments.userId, userId),
    eq(payments.subjectKind, "registration"),
  );
  await tx
    .update(payments)
    .set({ status: "cancelled", heldUntil: null })
    .where(
      and(registration, inArray(payments.status, ["pending", "submitted", "refused", "waived"])),
    );
  await tx
    .update(payments)
    .set({ leftAt: now })
    .where(and(registration, eq(payments.status, "confirmed")));
}

/** Whether the member's place at the event is held for a payment not yet confirmed. */
export function isUnpaid(status: string | null | undefined): boolean {
  return status === "pending" || status === "submitted" || status === "refused";
}

/**
 * The state of each member's live registration payment at the event (none: a free place), for
 * the door and the passes: a place not paid yet is no pass (`passNotValid`). All members when
 * `userIds` is left out.
 */
export async function registrationPaymentStatuses(
  db: Db,
  eventId: string,
  userIds?: readonly string[],
): Promise<Map<string, string>> {
  if (userIds?.length === 0) return new Map();
  const rows = await db
    .select({ userId: payments.userId, status: payments.status })
    .from(payments)
    .where(
      and(
        eq(payments.eventId, eventId),
        eq(payments.subjectKind, "registration"),
        inArray(payments.status, [...LIVE_STATUSES]),
        userIds ? inArray(payments.userId, [...userIds]) : undefined,
      ),
    );
  return new Map(rows.flatMap((r) => (r.userId ? [[r.userId, r.status] as const] : [])));
}

/**
 * A team registered in a category with a fee (decision 052): its place is held like a person's,
 * for the event's hold hours, by a payment of the team paid by its captain.
 */
export async function holdTeamFee(
  tx: Db,
  team: { eventId: string; teamId: string; payerId: string; amountCents: number },
  now: Date,
  options: { fromWaitlist?: boolean } = {},
): Promise<void> {
  const [event] = await tx
    .select({ holdHours: events.holdHours })
    .from(events)
    .where(eq(events.id, team.eventId));
  if (!event || team.amountCents === 0) return;
  const [row] = await tx
    .insert(payments)
    .values({
      subjectKind: "team",
      teamId: team.teamId,
      eventId: team.eventId,
      userId: team.payerId,
      amountCents: team.amountCents,
      heldUntil: new Date(now.getTime() + event.holdHours * HOUR),
    })
    .returning({ id: payments.id });
  await queuePaymentMail(tx, "paymentPending", row!.id, options);
}

/**
 * The team was withdrawn: a fee not paid is cancelled; a fee paid stays confirmed, marked with
 * when the team left, and its refund is the treasurer's to record (as a person's who leaves).
 */
export async function releaseTeamFee(tx: Db, teamId: string, now: Date): Promise<void> {
  const team = and(eq(payments.subjectKind, "team"), eq(payments.teamId, teamId));
  await tx
    .update(payments)
    .set({ status: "cancelled", heldUntil: null })
    .where(and(team, inArray(payments.status, ["pending", "submitted", "refused", "waived"])));
  await tx
    .update(payments)
    .set({ leftAt: now })
    .where(and(team, eq(payments.status, "confirmed")));
}
