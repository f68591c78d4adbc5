// What the check-in page and its data route share: the list a phone keeps, and one check-in read
// from a form (a typed code without JavaScript, or a queued mark sent by the page's script).
import type { AppLoadContext } from "react-router";
import { checkIn, listCheckIn } from "~/attendance/check-in.server";
import { requireEventActor, type SessionUser } from "~/guards.server";
import type { LinkHolder } from "~/members/staff-links.server";
import { notFound } from "~/kernel/not-found";
import { MESSAGES } from "~/messages";
import type { CheckInPayload, CheckInReply } from "~/attendance/check-in";
import { Refusal } from "~/kernel/errors";
import { formatTime } from "~/kernel/time";
import { doorWindowView } from "~/attendance/door";

type CheckInList = NonNullable<Awaited<ReturnType<typeof listCheckIn>>>;

/** The event's participants as the page and the phone's copy hold them (times as ISO strings). */
export function checkInPayload(list: CheckInList, now: Date): CheckInPayload {
  return {
    generatedAt: now.toISOString(),
    event: {
      id: list.event.id,
      nombreEvento: list.event.nombreEvento,
      startsAt: list.event.startsAt.toISOString(),
    },
    doors: list.doors.map(doorWindowView),
    participants: list.participants.map((p) => ({
      userId: p.userId,
      nombre: p.nombre,
      photoURL: p.photoURL,
      token: p.token,
      code: p.code,
      notValid: p.notValid,
      checkedInAt: p.checkedInAt?.toISOString() ?? null,
      checkedInBy: p.checkedInBy,
    })),
  };
}

/**
 * Reads `token` (a scanned QR) or `codigo` (typed) and `marcadoEn` (when a phone marked it, for a
 * queued check-in) and checks the person in. Refusals are answers (4xx), never exceptions.
 */
export async function checkInFromForm(
  form: FormData,
  context: AppLoadContext,
  admin: SessionUser | LinkHolder,
  eventId: string | undefined,
): Promise<{ status: number; reply: CheckInReply }> {
  const field = (name: string) => {
    const values = form.getAll(name);
    return values.length === 1 ? values[0] : values.length === 0 ? undefined : null;
  };
  try {
    const result = await checkIn(
      context.db,
      context.config.sessionSecret,
      admin,
      eventId,
      {
        token: field("token"),
        code: field("codigo"),
        at: field("marcadoEn"),
      },
      context.now(),
      context.config.siteTimezone,
    );
    return {
      status: 200,
      reply: {
        ok: true,
        outcome: result.outcome,
        userId: result.userId,
        nombre: result.nombre,
        photoURL: result.photoURL,
        checkedInAt: result.checkedInAt.toISOString(),
        checkedInBy: result.checkedInBy,
      },
    };
  } catch (error) {
    if (error instanceof Refusal)
      return { status: error.status, reply: { ok: false, message: error.message } };
    throw error;
  }
}

/** The check-in page's data and who asks (a member, or a staff link's holder); a 404 for an unknown event. */
export async function loadCheckInFor(request: Request, eventId: string, context: AppLoadContext) {
  // Door staff outside their hours open the page too: it says when the door opens.
  const actor = await requireEventActor(request, context, "event.checkIn", eventId, {
    anyTime: true,
  });
  const list = await listCheckIn(
    context.db,
    context.config.sessionSecret,
    actor,
    eventId,
    context.now(),
  );
  if (!list) notFound(MESSAGES.eventNotFound);
  const zone = context.config.siteTimezone;
  // Which session of several the door is for (decision 044); short, in place of the event's date,
  // so the page still fits a phone's screen without scrolling. A closed door says when it opens
  // (the page's hook, from the doors in the payload).
  const session =
    list.session && list.session.total > 1
      ? `Sesión ${list.session.number} de ${list.session.total} · ${formatTime(list.session.startsAt, zone)} a ${formatTime(list.session.endsAt, zone)}`
      : null;
  return { actor, payload: checkInPayload(list, context.now()), session };
}

/** The check-in page's data, for its script. */
export async function loadCheckIn(
  request: Request,
  eventId: string,
  context: AppLoadContext,
): Promise<ReturnType<typeof checkInPayload>> {
  return (await loadCheckInFor(request, eventId, context)).payload;
}
