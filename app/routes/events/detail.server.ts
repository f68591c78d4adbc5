// An event's page (/detalles/:id) on the server: what it shows to whoever asks, and the member's
// posts, one named function per `intent` (join, leave, leave the waiting list).
import { data, type AppLoadContext } from "react-router";
import { memberPass } from "~/attendance/check-in.server";
import { reachesShare } from "~/attendance/event-session-attendance.server";
import type { User } from "~/db/schema.server";
import {
  listCategories,
  listCategoriesWithTeams,
  publicCategories,
} from "~/competitions/categories.server";
import { eventState, getEventForViewer } from "~/events/event.server";
import { joinEvent, leaveEvent, leaveWaitlist } from "~/events/participation.server";
import { memberSessions, setSessionSkip } from "~/events/event-session-skips.server";
import { redirectWithFlash } from "~/flash.server";
import { isHttpUrl } from "~/kernel/checks";
import { eventPlace } from "~/events/event-place";
import { reminderText } from "~/events/reminder-text";
import { formatDateRange, formatDateTime } from "~/kernel/time";
import { answerRefusal, Refusal } from "~/kernel/errors";
import { isImageLink } from "~/kernel/images";
import { notFound } from "~/kernel/not-found";
import { MESSAGES, type MessageKey } from "~/messages";
import {
  grantActionFor,
  may,
  mayAnyTime,
  mayAs,
  ROLE_KINDS,
  type Grant,
  type RoleKind,
} from "~/kernel/permissions";
import { eventStaff, findMemberByEmail, grantRole, revokeRole } from "~/members/roles.server";

type Viewer = User & { grants?: readonly Grant[] };

interface Post {
  eventId: string;
  user: Viewer;
  context: AppLoadContext;
  form: FormData;
}

/** What the event's page offers those who run it: its staff, and the links to their pages. */
export async function staffOf(eventId: string, user: Viewer | null, context: AppLoadContext) {
  if (!user || !may(user, "event.manage", { eventId })) return null;
  const staff = await eventStaff(context.db, user, eventId);
  // A competition's categories, for its judges (decision 057).
  const categories = (await listCategories(context.db, eventId)).map((c) => ({
    id: c.id,
    name: c.name,
  }));
  // The kinds this person may give here (admins organisers too); judges once it has categories.
  const kinds = (["organiser", "door", "judge"] as const satisfies readonly RoleKind[]).filter(
    (kind) =>
      may(user, grantActionFor(kind), { eventId }) && (kind !== "judge" || categories.length > 0),
  );
  return {
    staff: staff.map((s) => ({ ...s, label: ROLE_KINDS[s.kind].label })),
    kinds: kinds.map((kind) => ({ kind, label: ROLE_KINDS[kind].label })),
    categories,
  };
}

/** The event as the viewer may see it: their place in it, their pass, their certificate. */
export async function loadEventDetail(
  eventId: string,
  user: Viewer | null,
  context: AppLoadContext,
) {
  const now = context.now();
  const event = await getEventForViewer(context.db, eventId, user?.id ?? null);
  if (!event) notFound(MESSAGES.eventNotFound);
  const eventStaff = await staffOf(event.id, user, context);
  // A competition's categories (decision 051); none for any other event.
  const categories = event.isCompetition
    ? publicCategories(await listCategoriesWithTeams(context.db, event.id), now)
    : [];
  const participating = event.participating;
  const waiting = participating ? null : event.waiting;
  const state = eventState(event, now);
  const ended = state === "ended";
  const held = event.sessions.filter((s) => s.cancelledAt === null).length;
  const zone = context.config.siteTimezone;
  // The member's pass for the door, until the event ends, when it has a door.
  const pass =
    user && participating && !ended && event.tipoEvento !== "Virtual"
      ? await memberPass(context.db, context.config.sessionSecret, event, user.id)
      : null;
  // The session under way or the next one (of an event of one session, the event).
  const upcoming = event.sessions.find((s) => s.cancelledAt === null && s.endsAt > now) ?? null;
  // A participant's own marks on a course's or a club's sessions (decision 045).
  const mine =
    user && participating && event.sessions.length > 1
      ? await memberSessions(context.db, user.id, event.id)
      : null;
  return data(
    {
      event: {
        id: event.id,
        nombreEvento: event.nombreEvento,
        ubicacionEvento: event.ubicacionEvento,
        ubicacionEspecifica: event.ubicacionEspecifica,
        tipoEvento: event.tipoEvento,
        enlacesVirtuales: event.enlacesVirtuales.filter(isHttpUrl),
        imagenEnlace: event.imagenEnlace,
        priceCents: event.priceCents,
        descripcion: event.descripcion,
        startsAt: event.startsAt.toISOString(),
        endsAt: event.endsAt.toISOString(),
        gallery: event.gallery.filter((image) => isImageLink(image.url)),
        // Listed on the page when there are several (decision 043); cancelled ones marked.
        sessions: event.sessions.map((s) => ({
          id: s.id,
          startsAt: s.startsAt.toISOString(),
          endsAt: s.endsAt.toISOString(),
          place: s.place,
          link: s.link && isHttpUrl(s.link) ? s.link : null,
          cancelled: s.cancelledAt !== null,
          // Null for whoever does not take part; otherwise what they said and did.
          mine: mine
            ? {
                attended: mine.attended.has(s.id),
                skipped: mine.skipped.has(s.id),
                // 'No podré ir' / 'Sí iré' until the session begins.
                canSkip: s.cancelledAt === null && s.startsAt > now && !mine.attended.has(s.id),
              }
            : null,
        })),
      },
      // Of a course or a club, the session under way or the next one (decision 045).
      nextSession:
        held > 1 && upcoming
          ? {
              startsAt: upcoming.startsAt.toISOString(),
              endsAt: upcoming.endsAt.toISOString(),
              underWay: upcoming.startsAt <= now,
            }
          : null,
      // When and where, in one line: what a share says under the event's name (decision 047).
      shareLine: `${
        held > 1
          ? `${formatDateRange(event.startsAt, event.endsAt, zone)} · ${held} sesiones`
          : formatDateTime(event.startsAt, zone)
      } · ${eventPlace(event)}`,
      // The group chat, for those with a place only: never to visitors nor to those waiting, and
      // at a paid event only once the place is paid for (or waived).
      chatLink:
        participating &&
        (event.priceCents === 0 ||
          event.paymentStatus === "confirmed" ||
          event.paymentStatus === "waived") &&
        event.chatLink &&
        event.chatLink.startsWith("https://") &&
        isHttpUrl(event.chatLink)
          ? event.chatLink
          : null,
      // Who runs it: the one who published it, then its organisers (each named once).
      organisers: [...new Set([event.publisherName, ...event.organisers])],
      categories,
      // Its organisers and admins reach the category editor from the page.
      editCategories: user !== null && may(user, "event.competition", { eventId: event.id }),
      going: event.going,
      state,
      ended,
      signedIn: user !== null,
      participating,
      // Checked in at the door: the member stays a participant (no 'Dejar de Participar').
      attended: event.attended,
      // The certificate of attendance, once the event has ended, for a participant who attended
      // the event's share of sessions (decision 044).
      certificate: ended && reachesShare(event.sessionsAttended, held, event.certificateShare),
      // Their attendance of a course of several sessions, and the share that earns the certificate.
      sessionsAttended:
        participating && held > 1 && (ended || event.sessionsAttended > 0)
          ? { attended: event.sessionsAttended, total: held, share: event.certificateShare }
          : null,
      waiting,
      // The member's payment for their place, when the event has a price (decision 048).
      payment: participating && event.paymentStatus ? { status: event.paymentStatus } : null,
      seats: ended || event.seatsLeft === null ? null : { left: event.seatsLeft },
      // The member's pass for the door, until the event ends, when it has a door.
      checkIn: pass,
      // The reminder to send oneself or a group by WhatsApp (decision 047), until it ends.
      reminder:
        participating && !ended
          ? reminderText({
              nombreEvento: event.nombreEvento,
              startsAt: upcoming?.startsAt ?? event.startsAt,
              endsAt: upcoming?.endsAt ?? event.endsAt,
              place: eventPlace(event),
              code: pass?.valid ? pass.code : null,
              url: `${context.config.publicUrl.origin}/detalles/${event.id}`,
              timeZone: zone,
            })
          : null,
      timeZone: context.config.siteTimezone,
      origin: context.config.publicUrl.origin,
      eventStaff,
      // The links this person's roles open for this event.
      // Asked of the capability table (decision 071), as the pages they open ask it.
      manage: user !== null && may(user, "event.manage", { eventId: event.id }),
      // Its check-in, for door staff outside their window too: that page says when it opens.
      checkInLink: mayAnyTime(user, "event.checkIn", { eventId: event.id }),
      // A judge's categories of this event: each opens its judge's screen (decision 059).
      judging: categories
        .filter((c) =>
          mayAs(user, "judge", "category.judge", { eventId: event.id, categoryId: c.id }),
        )
        .map((c) => ({ id: c.id, name: c.name })),
    },
    user ? { headers: { "Cache-Control": "no-store" } } : undefined,
  );
}

const PARTICIPATION_ACTIONS: Record<string, (post: Post) => Promise<MessageKey>> = {
  /** 'Participar' ('Asistir como público' on a competition), or 'Unirse a la lista de espera'
   *  when the seats are taken. */
  async join({ eventId, user, context }) {
    const outcome = await joinEvent(context.db, user, eventId, context.now());
    if (outcome !== "joined") return "waitlistJoined";
    // On a competition the seat is the audience's: the message says a team is registered apart
    // (decision 077).
    return (await listCategories(context.db, eventId)).length > 0
      ? "audienceJoined"
      : "participationJoined";
  },
  async leave({ eventId, user, context }) {
    await leaveEvent(context.db, user, eventId, context.now());
    return (await listCategories(context.db, eventId)).length > 0
      ? "audienceLeft"
      : "participationLeft";
  },
  async leaveWaitlist({ eventId, user, context }) {
    await leaveWaitlist(context.db, user, eventId);
    return "waitlistLeft";
  },
  /** 'No podré ir' to one session of a course or a club, and 'Sí iré' to take it back. */
  async skipSession({ eventId, user, context, form }) {
    await setSessionSkip(context.db, user, eventId, form.get("sessionId"), true, context.now());
    return "sessionSkipped";
  },
  async unskipSession({ eventId, user, context, form }) {
    await setSessionSkip(context.db, user, eventId, form.get("sessionId"), false, context.now());
    return "sessionUnskipped";
  },
  grantRole: (post) => changeStaff("grantRole", post),
  revokeRole: (post) => changeStaff("revokeRole", post),
};

/**
 * The staff's forms ('Dar rol' to a member found by e-mail, 'Quitar'), on the event's page and on
 * its management page: admins give organisers, door staff and judges; organisers door staff and
 * judges (of one category, picked in the form).
 */
export async function changeStaff(
  intent: "grantRole" | "revokeRole",
  { eventId, user, context, form }: Post,
): Promise<MessageKey> {
  if (intent === "grantRole") {
    const userId = await findMemberByEmail(context.db, user, eventId, form.get("email"));
    if (!userId) throw new Refusal(MESSAGES.roleMemberNotFound, 404);
    await grantRole(
      context.db,
      user,
      {
        userId,
        kind: form.get("kind"),
        eventId,
        categoryId: form.get("categoryId"),
      },
      form.get("visto") ?? "",
    );
    return "roleGranted";
  }
  await revokeRole(
    context.db,
    user,
    {
      userId: form.get("userId"),
      kind: form.get("kind"),
      eventId,
      categoryId: form.get("categoryId"),
    },
    form.get("visto") ?? "",
  );
  return "roleRevoked";
}

export async function participationAction(
  eventId: string,
  form: FormData,
  user: Viewer,
  context: AppLoadContext,
) {
  const intent = form.get("intent");
  const handle =
    typeof intent === "string" && Object.hasOwn(PARTICIPATION_ACTIONS, intent)
      ? PARTICIPATION_ACTIONS[intent]
      : undefined;
  if (!handle) return data({ message: MESSAGES.participationFailed }, { status: 400 });
  let flash: MessageKey;
  try {
    flash = await handle({ eventId, user, context, form });
  } catch (error) {
    // The staff's forms answer on the page, next to the form; the rest as before.
    if (error instanceof Refusal && (intent === "grantRole" || intent === "revokeRole"))
      return data({ message: error.message, staff: true }, { status: error.status });
    if (error instanceof Refusal) return answerRefusal(error);
    console.error("No se pudo actualizar la participación:", error);
    return data({ message: MESSAGES.participationFailed }, { status: 500 });
  }
  const anchor =
    intent === "grantRole" || intent === "revokeRole"
      ? "#personal-title"
      : intent === "skipSession" || intent === "unskipSession"
        ? "#event-sessions-title"
        : "";
  return redirectWithFlash(context, `/detalles/${eventId}${anchor}`, flash);
}
