// An event's participants on the server: what the page shows, and its form posts, one named
// function per `intent`. The route checks who is asking, reads the form and dispatches here.
import { data, redirect, type AppLoadContext } from "react-router";
import { listAttendance, setCheckedIn, setSessionAttendance } from "~/attendance/attendance.server";
import { closedDoorMessage, doorAt } from "~/attendance/door";
import { eventDoors } from "~/attendance/door-window.server";
import type { User } from "~/db/schema.server";
import { teamPlaceText, teamsOfParticipants } from "~/competitions/team-hooks.server";
import { hasEnded } from "~/events/event.server";
import { redirectWithFlash } from "~/flash.server";
import { answerRefusal } from "~/kernel/errors";
import { parseForm } from "~/kernel/forms";
import { notFound } from "~/kernel/not-found";
import { queueParticipantsMessage } from "~/mail/mail.server";
import { ParticipantsMessageSchema } from "~/mail/schemas";
import { MESSAGES } from "~/messages";

interface Post {
  eventId: string;
  form: FormData;
  admin: User;
  context: AppLoadContext;
}

/** How many a message reached, carried across the redirect after sending it. */
function sentReport(request: Request) {
  const params = new URL(request.url).searchParams;
  const queued = params.get("enviado");
  const optedOut = params.get("sinCorreo");
  if (queued === null || !/^\d{1,6}$/.test(queued)) return null;
  return {
    queued: Number(queued),
    optedOut: optedOut !== null && /^\d{1,6}$/.test(optedOut) ? Number(optedOut) : 0,
  };
}

/** The event, who takes part, who waits, and the report of a message just sent. */
export async function loadParticipants(
  request: Request,
  eventId: string,
  admin: User,
  context: AppLoadContext,
) {
  const attendance = await listAttendance(context.db, admin, eventId);
  if (!attendance) notFound(MESSAGES.eventNotFound);
  const { event, participants, waiting } = attendance;
  // A competition's competitors and coaches are told apart from its audience.
  const teams = await teamsOfParticipants(context.db, admin, event.id);
  // The door's rule (decision 075): 'Marcar presente' marks the session the door is open for, or
  // afterwards the last one whose door opened; before any door opened it is not offered.
  const now = context.now();
  const doors = (await eventDoors(context.db, event.id)) ?? [];
  const door = doorAt(doors, now);
  const opened = new Set(doors.filter((w) => w.opensAt <= now).map((w) => w.sessionId));
  return data(
    {
      sent: sentReport(request),
      timeZone: context.config.siteTimezone,
      event: {
        ...event,
        startsAt: event.startsAt.toISOString(),
        endsAt: event.endsAt.toISOString(),
      },
      // Certificates of attendance exist for those who attended the event's share of sessions,
      // once the event has ended.
      ended: hasEnded(event, now),
      door: {
        open: door.open,
        markable: door.open || opened.size > 0,
        message: door.open ? null : closedDoorMessage(door, now, context.config.siteTimezone),
      },
      sessions: attendance.sessions.map((s) => ({
        id: s.id,
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
        // Its attendance can be marked by hand once its door has opened (decision 045).
        opened: opened.has(s.id),
      })),
      participants: participants.map((p) => ({
        userId: p.userId,
        nombre: p.nombre,
        email: p.email,
        ciudad: p.ciudad,
        joinedAt: p.joinedAt.toISOString(),
        checkedInAt: p.checkedInAt?.toISOString() ?? null,
        sessionIds: p.sessionIds,
        skippedIds: p.skippedIds,
        reachesShare: p.reachesShare,
        teams: (teams.get(p.userId) ?? []).map((t) => ({ id: t.teamId, text: teamPlaceText(t) })),
      })),
      waiting: waiting.map((w) => ({
        userId: w.userId,
        nombre: w.nombre,
        email: w.email,
        createdAt: w.createdAt.toISOString(),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** 'Marcar presente' and 'Quitar asistencia': the door list, by hand. */
async function markAttendance({ eventId, form, admin, context }: Post, present: boolean) {
  try {
    await setCheckedIn(
      context.db,
      admin,
      eventId,
      form.get("userId"),
      present,
      context.now(),
      context.config.siteTimezone,
    );
  } catch (error) {
    return answerRefusal(error);
  }
  return redirectWithFlash(
    context,
    `/admin/eventos/${eventId}/participantes`,
    present ? "checkedIn" : "checkInUndone",
  );
}

/** 'Enviar mensaje a los participantes': queued, then the page says to how many. */
async function sendMessage({ eventId, form, admin, context }: Post) {
  const result = parseForm(ParticipantsMessageSchema, form);
  if (!result.ok) {
    return data(
      {
        intent: "sendMessage" as const,
        fieldErrors: result.fieldErrors,
        formError: result.formError,
        values: result.values,
      },
      { status: 400 },
    );
  }
  let report: { queued: number; optedOut: number };
  try {
    report = await queueParticipantsMessage(context.db, admin, eventId, result.data);
  } catch (error) {
    return answerRefusal(error);
  }
  return redirect(
    `/admin/eventos/${eventId}/participantes?enviado=${report.queued}&sinCorreo=${report.optedOut}#mensaje-title`,
  );
}

/** 'Marcar' and 'Quitar' on one session of a member's list: a correction after the fact. */
async function markSession({ eventId, form, admin, context }: Post, present: boolean) {
  try {
    await setSessionAttendance(
      context.db,
      admin,
      eventId,
      form.get("userId"),
      form.get("sessionId"),
      present,
      context.config.siteTimezone,
      context.now(),
    );
  } catch (error) {
    return answerRefusal(error);
  }
  return redirectWithFlash(
    context,
    `/admin/eventos/${eventId}/participantes`,
    present ? "checkedIn" : "checkInUndone",
  );
}

const PARTICIPANTS_ACTIONS = {
  checkIn: (post: Post) => markAttendance(post, true),
  undoCheckIn: (post: Post) => markAttendance(post, false),
  checkInSession: (post: Post) => markSession(post, true),
  undoCheckInSession: (post: Post) => markSession(post, false),
  sendMessage,
};

export async function participantsAction(
  eventId: string,
  form: FormData,
  admin: User,
  context: AppLoadContext,
) {
  const intent = form.get("intent");
  if (typeof intent !== "string" || !Object.hasOwn(PARTICIPANTS_ACTIONS, intent)) {
    return data({ message: MESSAGES.participationFailed }, { status: 400 });
  }
  const handle = PARTICIPANTS_ACTIONS[intent as keyof typeof PARTICIPANTS_ACTIONS];
  return handle({ eventId, form, admin, context });
}
