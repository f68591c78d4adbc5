// Participation (§3, §4): one row per (member, event). Joining an ended event is refused here,
// whatever the client sends; "ended" is hasEnded, decided on the server.
import { and, eq, sql } from "drizzle-orm";
import { isUuid } from "~/lib/schemas";
import type { Db } from "../db/client.server";
import { events, participations, type User } from "../db/schema.server";
import { EventNotFoundError, hasEnded } from "./event.server";

export class EventEndedError extends Error {
  override name = "EventEndedError";
}

type Member = Pick<User, "id">;

/** Joins `member` to the event; joining twice (or twenty times at once) leaves one row. */
export async function joinEvent(
  db: Db,
  member: Member,
  eventId: unknown,
  now: Date = new Date(),
): Promise<void> {
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const [event] = await db
    .select({ startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) throw new EventNotFoundError();
  if (hasEnded(event, now))
    throw new EventEndedError("Este evento ya ha finalizado, no es posible participar.");
  try {
    await db.insert(participations).values({ userId: member.id, eventId }).onConflictDoNothing();
  } catch (error) {
    // The event was deleted between the check and the insert.
    if (
      (error as { code?: string; cause?: { code?: string } }).code === "23503" ||
      (error as { cause?: { code?: string } }).cause?.code === "23503"
    ) {
      throw new EventNotFoundError();
    }
    throw error;
  }
}

/**
 * Leaves the event; leaving an event one is not part of changes nothing. Like joining, only
 * before the end: afterwards the row is the record that the member attended.
 */
export async function leaveEvent(
  db: Db,
  member: Member,
  eventId: unknown,
  now: Date = new Date(),
): Promise<void> {
  if (!isUuid(eventId)) throw new EventNotFoundError();
  // The end is checked in the same statement as the delete, so a leave racing the end cannot slip by.
  const deleted = await db
    .delete(participations)
    .where(
      and(
        eq(participations.userId, member.id),
        eq(participations.eventId, eventId),
        sql`exists (select 1 from ${events} where ${events.id} = ${eventId} and ${events.startsAt} >= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ eventId: participations.eventId });
  if (deleted.length > 0) return;
  const [event] = await db
    .select({ startsAt: events.startsAt })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) throw new EventNotFoundError();
  if (hasEnded(event, now)) {
    const participating = await isParticipating(db, member.id, eventId);
    if (participating)
      throw new EventEndedError("Este evento ya ha finalizado, no es posible dejar de participar.");
  }
}

export async function isParticipating(db: Db, userId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(participations)
    .where(and(eq(participations.userId, userId), eq(participations.eventId, eventId)))
    .limit(1);
  return row !== undefined;
}

export async function countParticipants(db: Db, eventId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(participations)
    .where(eq(participations.eventId, eventId));
  return row?.n ?? 0;
}
