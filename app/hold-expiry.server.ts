// Holds that run out (decision 048): a place held for a payment that nothing was sent for by
// `held_until` is freed, and the waiting list advances — each member seated from it gets a new
// hold. Run by a claimed job every minute, with the server's clock. It frees seats (events) and team
// places (competitions) for payments: orchestration of three domains, so it sits with the app.
import { and, asc, eq, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, participations, payments } from "~/db/schema.server";
import { fillSeats } from "~/events/seats.server";
import { queuePaymentMail } from "~/payments/mails.server";
import { lockTeamCategory, withdrawForUnpaidFee } from "~/competitions/team-hooks.server";

/** How often the server looks for holds that ran out. */
export const HOLD_EXPIRY_MS = 60_000;

/**
 * Expires every hold due at `now` (a place held, or held again after a refusal), one transaction per hold: the event row is locked first (as a
 * join or a leave does), then the payment; a payment confirmed, waived or sent in the meantime is
 * left alone, so a confirmation and an expiry racing end in one state. Returns how many expired.
 */
export async function expireHolds(db: Db, now: Date = new Date()): Promise<number> {
  const due = await db
    .select({ id: payments.id, eventId: payments.eventId, teamId: payments.teamId })
    .from(payments)
    .where(and(inArray(payments.status, ["pending", "refused"]), lte(payments.heldUntil, now)))
    .orderBy(asc(payments.heldUntil), asc(payments.id));
  let expired = 0;
  for (const { id, eventId, teamId } of due) {
    const done = await db.transaction(async (tx) => {
      const [event] = await tx
        .select({ id: events.id, capacity: events.capacity, endsAt: events.endsAt })
        .from(events)
        .where(eq(events.id, eventId))
        .for("update");
      // An event over keeps who was there: its last holds are the treasurer's to settle.
      if (!event || event.endsAt.getTime() <= now.getTime()) return false;
      // A team's fee (decision 052): its category next, in the order every team change takes.
      if (teamId) await lockTeamCategory(tx, teamId);
      const [payment] = await tx
        .select({ userId: payments.userId, status: payments.status, heldUntil: payments.heldUntil })
        .from(payments)
        .where(eq(payments.id, id))
        .for("update");
      if (
        !payment?.userId ||
        !["pending", "refused"].includes(payment.status) ||
        !payment.heldUntil
      )
        return false;
      if (payment.heldUntil.getTime() > now.getTime()) return false;
      await tx
        .update(payments)
        .set({ status: "expired", heldUntil: null })
        .where(eq(payments.id, id));
      await queuePaymentMail(tx, "holdExpired", id);
      if (teamId) {
        // The team's place goes: the team is withdrawn and its members are free.
        await withdrawForUnpaidFee(tx, teamId, now);
        return true;
      }
      // The seat goes. Someone already checked in (a competitor, say: decision 055) keeps their
      // participation and its attendance, without the seat; anyone else's registration goes.
      const mine = and(
        eq(participations.eventId, eventId),
        eq(participations.userId, payment.userId),
      );
      await tx
        .update(participations)
        .set({ seat: false })
        .where(and(mine, isNotNull(participations.checkedInAt)));
      await tx.delete(participations).where(and(mine, isNull(participations.checkedInAt)));
      await fillSeats(tx, event, now);
      return true;
    });
    if (done) expired++;
  }
  return expired;
}
