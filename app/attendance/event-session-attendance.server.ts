// Attendance per session (docs/decisions/044-attendance-per-session.md): the sessions the door is
// for (./door.ts decides which one is under way), and how many sessions each participant attended, for the
// participants page, the member's profile and the certificate.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { eventSessions, events, participations } from "~/db/schema.server";

interface SessionWindow {
  id: string;
  startsAt: Date;
  endsAt: Date;
}

/** The event's sessions that are not cancelled, by start. */
export async function openSessionsOf(db: Db | Tx, eventId: string): Promise<SessionWindow[]> {
  return db
    .select({
      id: eventSessions.id,
      startsAt: eventSessions.startsAt,
      endsAt: eventSessions.endsAt,
    })
    .from(eventSessions)
    .where(and(eq(eventSessions.eventId, eventId), isNull(eventSessions.cancelledAt)))
    .orderBy(asc(eventSessions.startsAt));
}

/**
 * Whether `attended` of `total` sessions reaches `share` percent; exactly at it counts. An event
 * without a certificate (share null, decision 045) gives none.
 */
export function reachesShare(attended: number, total: number, share: number | null): boolean {
  return share !== null && total > 0 && attended > 0 && attended * 100 >= share * total;
}

/**
 * Every check-in recorded before attendance per session, as attendance of a session of its event:
 * the one that had opened last by the time of the check-in (for every event of that time, its one
 * session spanning it), else the first. The migration `0017_session_attendance` runs the same
 * statement, and a restored backup made before it runs this one.
 */
export const CHECK_INS_AS_ATTENDANCE = `insert into session_attendance
    (session_id, event_id, user_id, checked_in_at, checked_in_by, checked_in_by_link)
  select s.id, p.event_id, p.user_id, p.checked_in_at, p.checked_in_by, p.checked_in_by_link
  from participations p
  cross join lateral (
    select o.id from event_sessions o
    where o.event_id = p.event_id and o.cancelled_at is null
    order by (o.starts_at - interval '1 hour' <= p.checked_in_at) desc,
      case when o.starts_at - interval '1 hour' <= p.checked_in_at then o.starts_at end desc,
      o.starts_at
    limit 1) s
  where p.checked_in_at is not null
  on conflict do nothing`;

// For a query over participations joined to their events: how many of the event's sessions not
// cancelled the member attended (a session cancelled after they came counts neither way), the
// length of those in seconds, and how many sessions the event has.
export const attendedCount = sql<number>`(select count(*)::int from session_attendance a
  join event_sessions s on s.id = a.session_id
  where a.event_id = ${participations.eventId} and a.user_id = ${participations.userId}
    and s.cancelled_at is null)`;
export const attendedSeconds = sql<number>`(select coalesce(extract(epoch from sum(s.ends_at - s.starts_at)), 0)::float8
  from session_attendance a join event_sessions s on s.id = a.session_id
  where a.event_id = ${participations.eventId} and a.user_id = ${participations.userId}
    and s.cancelled_at is null)`;
export const sessionCount = sql<number>`(select count(*)::int from event_sessions s
  where s.event_id = ${events.id} and s.cancelled_at is null)`;
