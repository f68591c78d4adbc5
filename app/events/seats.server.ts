// Seats of an event with a capacity: how many are taken, and handing free ones to the waiting list.
// Callers hold the event row's lock (SELECT … FOR UPDATE, or the UPDATE of the event itself), so
// counting and promoting cannot interleave with a join or a leave of the same event.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { eventWaitlist, participations } from "~/db/schema.server";
import { queueMail, recipients } from "~/mail/mail.server";
import { holdPlaces } from "~/payments/hold.server";

export async function countParticipants(db: Db, eventId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(participations)
    // A competitor's participation (decision 055) takes no seat.
    .where(and(eq(participations.eventId, eventId), eq(participations.seat, true)));
  return row?.n ?? 0;
}

/**
 * Gives every free seat to the first people waiting, in order of arrival (all of them when the
 * event has no capacity), and queues the mail that tells each of them. At a paid event each of
 * them gets a new hold from `now` (decision 048). Returns the ids of the members who got a seat.
 */
export async function fillSeats(
  tx: Db,
  event: { id: string; capacity: number | null },
  now: Date = new Date(),
): Promise<string[]> {
  const free =
    event.capacity === null ? null : event.capacity - (await countParticipants(tx, event.id));
  if (free !== null && free <= 0) return [];
  const query = tx
    .select({ userId: eventWaitlist.userId })
    .from(eventWaitlist)
    .where(eq(eventWaitlist.eventId, event.id))
    .orderBy(asc(eventWaitlist.createdAt), asc(eventWaitlist.userId));
  const next = free === null ? await query : await query.limit(free);
  if (next.length === 0) return [];
  const ids = next.map((row) => row.userId);
  await tx
    .insert(participations)
    .values(ids.map((userId) => ({ userId, eventId: event.id, joinedAt: sql`clock_timestamp()` })))
    // A competitor checked in without a seat (decision 055) now takes one on the same row.
    .onConflictDoUpdate({
      target: [participations.userId, participations.eventId],
      set: { seat: true },
      setWhere: eq(participations.seat, false),
    });
  await tx
    .delete(eventWaitlist)
    .where(and(eq(eventWaitlist.eventId, event.id), inArray(eventWaitlist.userId, ids)));
  // At a paid event the mail that tells them is the one that says how to pay.
  const held = new Set(await holdPlaces(tx, event.id, ids, now, { fromWaitlist: true }));
  await queueMail(tx, "seat", recipients.members(ids.filter((id) => !held.has(id))), {
    eventId: event.id,
  });
  return ids;
}
