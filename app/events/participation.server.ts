// Participation (§3, §4): one row per (member, event), and the waiting list of a full event.
// Joining an ended event is refused here, whatever the client sends; "ended" is eventState,
// decided on the server: members join and leave until the end (unless checked in at the door). A
// join or a leave locks the event row first (SELECT … FOR UPDATE), so that the seat count it reads
// cannot change before it writes: 100 joins at once for 10 seats give exactly 10 participants and
// 90 waiting, in the order they got the lock (docs/decisions/018-attendance.md).
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import { events, eventWaitlist, participations, type User } from "~/db/schema.server";
import { EventNotFoundError, hasEnded } from "./event.server";
import { queueMail, recipients } from "~/mail/mail.server";
import { countParticipants, fillSeats } from "./seats.server";
import { Refusal } from "~/kernel/errors";
import { EVENT_MESSAGES } from "./messages";
import { holdPlaces, releasePlace } from "~/payments/hold.server";

export class EventEndedError extends Refusal {
  override name = "EventEndedError";
  constructor(message: string) {
    super(message, 409);
  }
}

type Member = Pick<User, "id">;

/** 'joined': the member participates (now or already); 'waiting': the event is full. */
type JoinOutcome = "joined" | "waiting";

async function lockEvent(tx: Db, eventId: string) {
  const [event] = await tx
    .select({
      id: events.id,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      capacity: events.capacity,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .for("update");
  if (!event) throw new EventNotFoundError();
  return event;
}

/**
 * Joins `member` to the event, or to its waiting list when every seat is taken (also when an
 * admin lowered the capacity below the participants). Joining twice changes nothing.
 */
export async function joinEvent(
  db: Db,
  member: Member,
  eventId: unknown,
  now: Date = new Date(),
): Promise<JoinOutcome> {
  if (!isUuid(eventId)) throw new EventNotFoundError();
  return db.transaction(async (tx) => {
    const event = await lockEvent(tx, eventId);
    if (hasEnded(event, now)) throw new EventEndedError(EVENT_MESSAGES.eventEnded);
    if (await isParticipating(tx, member.id, eventId)) return "joined";
    if (event.capacity !== null && (await countParticipants(tx, eventId)) >= event.capacity) {
      const added = await tx
        .insert(eventWaitlist)
        .values({ eventId, userId: member.id, createdAt: sql`clock_timestamp()` })
        .onConflictDoNothing()
        .returning({ userId: eventWaitlist.userId });
      if (added.length > 0)
        await queueMail(tx, "waitlistJoined", recipients.members([member.id]), { eventId });
      return "waiting";
    }
    // A competitor checked in at the door has a participation without a seat (decision 055):
    // joining the audience gives it one.
    const joined = await tx
      .insert(participations)
      .values({ userId: member.id, eventId, joinedAt: sql`clock_timestamp()` })
      .onConflictDoUpdate({
        target: [participations.userId, participations.eventId],
        set: { seat: true },
        setWhere: eq(participations.seat, false),
      })
      .returning({ userId: participations.userId });
    await tx
      .delete(eventWaitlist)
      .where(and(eq(eventWaitlist.eventId, eventId), eq(eventWaitlist.userId, member.id)));
    if (joined.length > 0) {
      // At a paid event the place is held for its payment, and its mail says how to pay
      // (decision 048); at a free one the join is confirmed.
      const held = await holdPlaces(tx, eventId, [member.id], now);
      if (held.length === 0)
        await queueMail(tx, "joined", recipients.members([member.id]), { eventId });
    }
    return "joined";
  });
}

/**
 * Leaves the event; leaving an event one is not part of changes nothing. Like joining, only
 * before the end, and not once checked in at the door: then the row is the record that the member
 * attended. The seat goes to the first person waiting, in the same transaction, as do the mails
 * that tell both.
 */
export async function leaveEvent(
  db: Db,
  member: Member,
  eventId: unknown,
  now: Date = new Date(),
): Promise<void> {
  if (!isUuid(eventId)) throw new EventNotFoundError();
  await db.transaction(async (tx) => {
    const event = await lockEvent(tx, eventId);
    if (hasEnded(event, now)) {
      if (await isParticipating(tx, member.id, eventId))
        throw new EventEndedError(EVENT_MESSAGES.eventEndedLeave);
      return;
    }
    const [row] = await tx
      .select({ checkedInAt: participations.checkedInAt })
      .from(participations)
      .where(and(eq(participations.userId, member.id), eq(participations.eventId, eventId)))
      .limit(1)
      .for("update");
    if (!row) return;
    if (row.checkedInAt !== null) throw new EventEndedError(EVENT_MESSAGES.checkedInLeave);
    const deleted = await tx
      .delete(participations)
      .where(and(eq(participations.userId, member.id), eq(participations.eventId, eventId)))
      .returning({ eventId: participations.eventId });
    if (deleted.length === 0) return;
    await releasePlace(tx, eventId, member.id, now);
    await queueMail(tx, "left", recipients.members([member.id]), { eventId });
    await fillSeats(tx, event, now);
  });
}

/** Leaves the event's waiting list; not being on it changes nothing. */
export async function leaveWaitlist(db: Db, member: Member, eventId: unknown): Promise<void> {
  if (!isUuid(eventId)) throw new EventNotFoundError();
  const [event] = await db
    .select({ id: events.id })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) throw new EventNotFoundError();
  await db
    .delete(eventWaitlist)
    .where(and(eq(eventWaitlist.eventId, eventId), eq(eventWaitlist.userId, member.id)));
}

/** Whether the member holds a seat of the event (a competitor's participation holds none). */
async function isParticipating(db: Db, userId: string, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(participations)
    .where(
      and(
        eq(participations.userId, userId),
        eq(participations.eventId, eventId),
        eq(participations.seat, true),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The events not ended whose waiting list the member is on, with their place in each. */
export async function listWaitingEvents(db: Db, userId: string, now: Date = new Date()) {
  return db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      startsAt: events.startsAt,
      position: sql<number>`(select count(*)::int from ${eventWaitlist} w where w.event_id = ${eventWaitlist.eventId} and (w.created_at, w.user_id) <= (${eventWaitlist.createdAt}, ${eventWaitlist.userId}))`,
    })
    .from(eventWaitlist)
    .innerJoin(events, eq(events.id, eventWaitlist.eventId))
    .where(and(eq(eventWaitlist.userId, userId), gt(events.endsAt, now)))
    .orderBy(asc(events.startsAt));
}
