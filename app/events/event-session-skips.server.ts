// The sessions a participant says they will miss (docs/decisions/045-recurring-meetups.md): a
// member of a weekly club or a course who cannot come one day says so on the event's page. They
// keep their place in the series; that session sends them no reminder, and its organisers see
// how many will not come. Only the member themselves, for a session not begun nor cancelled.
import { and, eq } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import {
  eventSessions,
  participations,
  sessionAttendance,
  sessionSkips,
  type User,
} from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { Refusal } from "~/kernel/errors";

export const SKIP_MESSAGES = {
  notFound: "Sesión no encontrada.",
  notParticipant: "Solo quienes participan en el evento pueden avisar que no irán a una sesión.",
  single: "Este evento tiene una sola sesión: si no puedes ir, deja tu lugar para otra persona.",
  cancelled: "Esa sesión está cancelada.",
  begun: "Esa sesión ya empezó: el aviso es solo para las sesiones que vienen.",
  attended: "Ya registraste tu asistencia a esa sesión.",
} as const;

export class SessionSkipError extends Refusal {
  override name = "SessionSkipError";
}

/**
 * The checks shared by saying one will miss a session and taking it back, in the transaction that
 * locks the participation (so leaving the event cannot slip between them).
 */
async function checkSkip(
  tx: Tx,
  member: Pick<User, "id">,
  eventId: unknown,
  sessionId: unknown,
  now: Date,
): Promise<{ eventId: string; sessionId: string }> {
  if (!isUuid(eventId) || !isUuid(sessionId))
    throw new SessionSkipError(SKIP_MESSAGES.notFound, 404);
  const [session] = await tx
    .select({ startsAt: eventSessions.startsAt, cancelledAt: eventSessions.cancelledAt })
    .from(eventSessions)
    .where(and(eq(eventSessions.id, sessionId), eq(eventSessions.eventId, eventId)))
    .limit(1);
  if (!session) throw new SessionSkipError(SKIP_MESSAGES.notFound, 404);
  const [participation] = await tx
    .select({ userId: participations.userId })
    .from(participations)
    .where(and(eq(participations.eventId, eventId), eq(participations.userId, member.id)))
    .for("update");
  if (!participation) throw new SessionSkipError(SKIP_MESSAGES.notParticipant, 403);
  const sessions = await tx
    .select({ id: eventSessions.id })
    .from(eventSessions)
    .where(eq(eventSessions.eventId, eventId))
    .limit(2);
  if (sessions.length < 2) throw new SessionSkipError(SKIP_MESSAGES.single, 409);
  if (session.cancelledAt !== null) throw new SessionSkipError(SKIP_MESSAGES.cancelled, 409);
  if (session.startsAt <= now) throw new SessionSkipError(SKIP_MESSAGES.begun, 409);
  return { eventId, sessionId };
}

/**
 * 'No podré ir' (`skip`) or 'Sí iré': the member will miss this session, or takes it back. Saying
 * it twice keeps the first time.
 */
export async function setSessionSkip(
  db: Db,
  member: Pick<User, "id">,
  eventId: unknown,
  sessionId: unknown,
  skip: boolean,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const ids = await checkSkip(tx, member, eventId, sessionId, now);
    const mine = and(eq(sessionSkips.sessionId, ids.sessionId), eq(sessionSkips.userId, member.id));
    if (!skip) {
      await tx.delete(sessionSkips).where(mine);
      return;
    }
    // The door opens an hour before the start: someone already checked in is coming.
    const [came] = await tx
      .select({ at: sessionAttendance.checkedInAt })
      .from(sessionAttendance)
      .where(
        and(
          eq(sessionAttendance.sessionId, ids.sessionId),
          eq(sessionAttendance.userId, member.id),
        ),
      )
      .limit(1);
    if (came) throw new SessionSkipError(SKIP_MESSAGES.attended, 409);
    await tx
      .insert(sessionSkips)
      .values({ ...ids, userId: member.id, createdAt: now })
      .onConflictDoNothing();
  });
}

/** 'No podré ir'. */
export const skipSession = (
  db: Db,
  member: Pick<User, "id">,
  eventId: unknown,
  sessionId: unknown,
  now?: Date,
) => setSessionSkip(db, member, eventId, sessionId, true, now);

/** Of an event's sessions, those the member said they will miss and those they came to. */
export async function memberSessions(
  db: Db,
  memberId: string,
  eventId: string,
): Promise<{ skipped: Set<string>; attended: Set<string> }> {
  const [skipped, attended] = await Promise.all([
    db
      .select({ sessionId: sessionSkips.sessionId })
      .from(sessionSkips)
      .where(and(eq(sessionSkips.eventId, eventId), eq(sessionSkips.userId, memberId))),
    db
      .select({ sessionId: sessionAttendance.sessionId })
      .from(sessionAttendance)
      .where(and(eq(sessionAttendance.eventId, eventId), eq(sessionAttendance.userId, memberId))),
  ]);
  return {
    skipped: new Set(skipped.map((r) => r.sessionId)),
    attended: new Set(attended.map((r) => r.sessionId)),
  };
}
