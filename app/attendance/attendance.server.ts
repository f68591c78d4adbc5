// An event's participants and waiting list as admins see them (/admin/eventos/:id/participantes),
// the CSV of participants, and marking someone present at the door. Admins only.
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { Db } from "~/db/client.server";
import {
  eventSessions,
  events,
  eventWaitlist,
  participations,
  sessionAttendance,
  sessionSkips,
  users,
  type User,
} from "~/db/schema.server";
import { reachesShare } from "./event-session-attendance.server";
import { closedDoorMessage, doorAt } from "./door";
import { eventDoors } from "./door-window.server";
import { assertMay, type Grant } from "~/kernel/permissions";
import { recordAudit, type AuditActor } from "~/audit/audit.server";
import { isLinkHolder, linkAuthor, type LinkHolder } from "~/members/staff-links.server";
import { eventScope } from "~/events/event.server";
import { Refusal } from "~/kernel/errors";
import { ATTENDANCE_MESSAGES } from "./messages";
import { formatDateTimeRange } from "~/kernel/time";

type Actor = (Pick<User, "isAdmin"> & { grants?: readonly Grant[] }) | null;

export class ParticipantNotFoundError extends Refusal {
  override name = "ParticipantNotFoundError";
  constructor() {
    super(ATTENDANCE_MESSAGES.participantNotFound, 404);
  }
}

export const nameOf = sql<string>`coalesce(nullif(${users.nombreCompleto}, ''), nullif(${users.displayName}, ''), ${users.email})`;

/**
 * The event with its participants (by time of joining, each with the sessions they attended),
 * those waiting (in order) and its sessions not cancelled (by start); null if unknown.
 */
export async function listAttendance(db: Db, actor: Actor, eventId: unknown) {
  assertMay(actor, "event.participants", { eventId: String(eventId) });
  if (!isUuid(eventId)) return null;
  const [event] = await db
    .select({
      id: events.id,
      nombreEvento: events.nombreEvento,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      capacity: events.capacity,
      certificateShare: events.certificateShare,
    })
    .from(events)
    .where(eq(events.id, eventId))
    .limit(1);
  if (!event) return null;
  const [participants, waiting, sessions, attended, skipped] = await Promise.all([
    db
      .select({
        userId: users.id,
        nombre: nameOf,
        email: users.email,
        ciudad: users.ciudad,
        habilidades: users.habilidades,
        joinedAt: participations.joinedAt,
        checkedInAt: participations.checkedInAt,
      })
      .from(participations)
      .innerJoin(users, eq(users.id, participations.userId))
      .where(eq(participations.eventId, eventId))
      .orderBy(asc(participations.joinedAt), asc(users.id)),
    db
      .select({
        userId: users.id,
        nombre: nameOf,
        email: users.email,
        createdAt: eventWaitlist.createdAt,
      })
      .from(eventWaitlist)
      .innerJoin(users, eq(users.id, eventWaitlist.userId))
      .where(eq(eventWaitlist.eventId, eventId))
      .orderBy(asc(eventWaitlist.createdAt), asc(eventWaitlist.userId)),
    db
      .select({
        id: eventSessions.id,
        startsAt: eventSessions.startsAt,
        endsAt: eventSessions.endsAt,
      })
      .from(eventSessions)
      .where(and(eq(eventSessions.eventId, eventId), isNull(eventSessions.cancelledAt)))
      .orderBy(asc(eventSessions.startsAt)),
    db
      .select({ userId: sessionAttendance.userId, sessionId: sessionAttendance.sessionId })
      .from(sessionAttendance)
      .where(eq(sessionAttendance.eventId, eventId)),
    db
      .select({ userId: sessionSkips.userId, sessionId: sessionSkips.sessionId })
      .from(sessionSkips)
      .where(eq(sessionSkips.eventId, eventId)),
  ]);
  const counted = new Set(sessions.map((s) => s.id));
  const byMember = new Map<string, Set<string>>();
  for (const a of attended) {
    if (!counted.has(a.sessionId)) continue; // a session cancelled after they came
    const set = byMember.get(a.userId) ?? new Set<string>();
    set.add(a.sessionId);
    byMember.set(a.userId, set);
  }
  return {
    event,
    sessions,
    participants: participants.map((p) => {
      const mine = byMember.get(p.userId) ?? new Set<string>();
      return {
        ...p,
        sessionIds: sessions.filter((s) => mine.has(s.id)).map((s) => s.id),
        // The sessions they said they will miss (decision 045).
        skippedIds: skipped.filter((k) => k.userId === p.userId).map((k) => k.sessionId),
        reachesShare: reachesShare(mine.size, sessions.length, event.certificateShare),
      };
    }),
    waiting,
  };
}

/**
 * Marks a participant present (the first time counts; marking again keeps it) or not present.
 * Someone who does not participate in the event cannot be marked. Present is attendance of the
 * session the door is open for, else (a correction afterwards) of the last one whose door opened;
 * before any door opened it is refused, as at the door (decision 075). Not present removes their
 * attendance of every session.
 */
export async function setCheckedIn(
  db: Db,
  actor:
    | (Pick<User, "id" | "isAdmin" | "displayName" | "nombreCompleto" | "email"> & {
        grants?: readonly Grant[];
      })
    | LinkHolder
    | null,
  eventId: unknown,
  userId: unknown,
  present: boolean,
  now: Date = new Date(),
  timeZone: string = "America/La_Paz",
): Promise<void> {
  const scope = (await eventScope(db, eventId, now)) ?? { eventId: String(eventId), now };
  const role = assertMay(actor, "event.checkIn", scope);
  if (!isUuid(eventId) || !isUuid(userId)) throw new ParticipantNotFoundError();
  const holder = isLinkHolder(actor) ? actor : null;
  const firstBy = (
    value: string | null,
    column: typeof participations.checkedInBy | typeof participations.checkedInByLink,
  ) =>
    present
      ? sql`case when ${participations.checkedInAt} is null then ${value}::uuid else ${column} end`
      : null;
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(participations)
      .set({
        checkedInAt: present
          ? sql`coalesce(${participations.checkedInAt}, ${now.toISOString()}::timestamptz)`
          : null,
        checkedInBy: firstBy(holder ? null : actor!.id!, participations.checkedInBy),
        checkedInByLink: firstBy(holder ? holder.link.id : null, participations.checkedInByLink),
      })
      .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)))
      .returning({ userId: participations.userId });
    if (updated.length === 0) throw new ParticipantNotFoundError();
    if (present) {
      const doors = (await eventDoors(tx, eventId)) ?? [];
      const door = doorAt(doors, now);
      const session = door.open ? door.window : doors.filter((w) => w.opensAt <= now).at(-1);
      if (!session && !door.open) throw new Refusal(closedDoorMessage(door, now, timeZone), 409);
      if (session) {
        await tx
          .insert(sessionAttendance)
          .values({
            sessionId: session.sessionId,
            eventId,
            userId,
            checkedInAt: now,
            checkedInBy: holder ? null : actor!.id!,
            checkedInByLink: holder ? holder.link.id : null,
          })
          .onConflictDoNothing();
      }
    } else {
      await tx
        .delete(sessionAttendance)
        .where(and(eq(sessionAttendance.eventId, eventId), eq(sessionAttendance.userId, userId)));
    }
    const [who] = await tx.select({ nombre: nameOf }).from(users).where(eq(users.id, userId));
    await recordAudit(tx, {
      actor: holder ? { system: linkAuthor(holder.link.label) } : (actor as AuditActor),
      role,
      action: present ? "checkIn" : "checkIn.undo",
      itemKind: "event",
      itemId: eventId,
      summary: present
        ? `Marcó presente a ${who?.nombre ?? "un participante"}`
        : `Quitó la asistencia de ${who?.nombre ?? "un participante"}`,
    });
  });
}

export const SESSION_ATTENDANCE_MESSAGES = {
  sessionNotFound: "Sesión no encontrada.",
  sessionCancelled: "Esa sesión está cancelada: su asistencia no cuenta.",
} as const;

/**
 * Marks a participant present at one particular session, or not present at it (decision 045): the
 * organisers' correction after the fact, on the participants page. The session must be one of the
 * event's, not cancelled, and its door must have opened. Marked once it has ended, the time
 * recorded is its start. `participations.checked_in_at` stays the first of their attendances.
 */
export async function setSessionAttendance(
  db: Db,
  actor: (Pick<User, "id" | "isAdmin"> & { grants?: readonly Grant[] }) | null,
  eventId: unknown,
  userId: unknown,
  sessionId: unknown,
  present: boolean,
  timeZone: string,
  now: Date = new Date(),
): Promise<void> {
  const role = assertMay(actor, "event.participants", { eventId: String(eventId) });
  if (!isUuid(eventId) || !isUuid(userId)) throw new ParticipantNotFoundError();
  if (!isUuid(sessionId)) {
    throw new Refusal(SESSION_ATTENDANCE_MESSAGES.sessionNotFound, 404);
  }
  await db.transaction(async (tx) => {
    const [session] = await tx
      .select({
        startsAt: eventSessions.startsAt,
        endsAt: eventSessions.endsAt,
        cancelledAt: eventSessions.cancelledAt,
      })
      .from(eventSessions)
      .where(and(eq(eventSessions.id, sessionId), eq(eventSessions.eventId, eventId)))
      .limit(1);
    if (!session) throw new Refusal(SESSION_ATTENDANCE_MESSAGES.sessionNotFound, 404);
    const [participation] = await tx
      .select({ userId: participations.userId })
      .from(participations)
      .where(and(eq(participations.eventId, eventId), eq(participations.userId, userId)))
      .for("update");
    if (!participation) throw new ParticipantNotFoundError();
    if (session.cancelledAt !== null) {
      throw new Refusal(SESSION_ATTENDANCE_MESSAGES.sessionCancelled, 409);
    }
    // Its door follows the event's hours (decision 075): before it opens, nothing to mark.
    const door = (await eventDoors(tx, eventId))?.find((w) => w.sessionId === sessionId);
    if (door && door.opensAt > now) {
      throw new Refusal(
        closedDoorMessage({ opensAt: door.opensAt, closedAt: null }, now, timeZone),
        409,
      );
    }
    const mine = and(
      eq(sessionAttendance.sessionId, sessionId),
      eq(sessionAttendance.userId, userId),
    );
    if (present) {
      const at = now <= session.endsAt ? now : session.startsAt;
      await tx
        .insert(sessionAttendance)
        .values({ sessionId, eventId, userId, checkedInAt: at, checkedInBy: actor!.id })
        .onConflictDoNothing();
      // They came: whatever they had said about missing it no longer holds.
      await tx
        .delete(sessionSkips)
        .where(and(eq(sessionSkips.sessionId, sessionId), eq(sessionSkips.userId, userId)));
    } else {
      await tx.delete(sessionAttendance).where(mine);
    }
    // The participation keeps the first of the attendances that remain, and who marked it.
    await tx.execute(sql`update participations p
      set checked_in_at = f.checked_in_at, checked_in_by = f.checked_in_by,
        checked_in_by_link = f.checked_in_by_link
      from (select 1) one
      left join (select a.checked_in_at, a.checked_in_by, a.checked_in_by_link
        from session_attendance a where a.event_id = ${eventId}::uuid and a.user_id = ${userId}::uuid
        order by a.checked_in_at limit 1) f on true
      where p.event_id = ${eventId}::uuid and p.user_id = ${userId}::uuid`);
    const [who] = await tx.select({ nombre: nameOf }).from(users).where(eq(users.id, userId));
    const when = formatDateTimeRange(session.startsAt, session.endsAt, timeZone);
    await recordAudit(tx, {
      actor: actor as AuditActor,
      role,
      action: present ? "checkIn" : "checkIn.undo",
      itemKind: "event",
      itemId: eventId,
      summary: present
        ? `Marcó presente a ${who?.nombre ?? "un participante"} en la sesión del ${when}`
        : `Quitó la asistencia de ${who?.nombre ?? "un participante"} a la sesión del ${when}`,
    });
  });
}
