// 'Mis eventos' on a member's profile: the events they take part in, with their attendance per
// session and their certificate (app/attendance/components/my-events.tsx shows them).
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { events, participations } from "~/db/schema.server";
import { attendedCount, sessionCount } from "./event-session-attendance.server";

/** The events a member takes part in (past ones too: their history), soonest first. */
export async function listParticipatingEvents(db: Db, userId: string, now: Date = new Date()) {
  return db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      fechaEvento: events.fechaEvento,
      horaEvento: events.horaEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      ubicacionEvento: events.ubicacionEvento,
      ubicacionEspecifica: events.ubicacionEspecifica,
      tipoEvento: events.tipoEvento,
      checkedInAt: participations.checkedInAt,
      // The session not cancelled that has not ended yet, first: a reminder's date (decision 047).
      next: sql<{ startsAt: string; endsAt: string } | null>`(select json_build_object(
          'startsAt', s.starts_at, 'endsAt', s.ends_at) from event_sessions s
        where s.event_id = ${events.id} and s.cancelled_at is null
          and s.ends_at > ${now.toISOString()}::timestamptz
        order by s.starts_at limit 1)`,
      // Attendance per session (decision 044).
      sessionsAttended: attendedCount,
      sessionsTotal: sessionCount,
      certificateShare: events.certificateShare,
    })
    .from(participations)
    .innerJoin(events, eq(events.id, participations.eventId))
    .where(eq(participations.userId, userId))
    .orderBy(asc(events.startsAt));
}
