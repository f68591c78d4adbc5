// /profile: what the page shows and what its forms do, one function per `intent`. The route
// checks who is asking, reads the form and dispatches here (as the admin panel does).
import { sitePrivateStorage } from "~/uploads/site-storage.server";
import { eventPlace } from "~/events/event-place";
import { reminderText } from "~/events/reminder-text";
import { data, type AppLoadContext } from "react-router";
import type { User } from "~/db/schema.server";
import { memberPass } from "~/attendance/check-in.server";
import { reachesShare } from "~/attendance/event-session-attendance.server";
import { renewCalendarToken } from "~/events/calendar.server";
import { hasEnded } from "~/events/event.server";
import { listWaitingEvents } from "~/events/participation.server";
import { cookieSettings, redirectWithFlash } from "~/flash.server";
import { parseForm } from "~/kernel/forms";
import { MailPreferencesSchema } from "~/mail/schemas";
import { saveMailPreferences, topicsOn } from "~/mail/mail.server";
import { deleteAccount } from "~/member-data.server";
import { ProfileSchema } from "~/members/schemas";
import { destroyAllSessions, destroySession } from "~/members/session.server";
import { forgetDeviceCopy } from "~/members/device-copy.server";
import { rolesOf } from "~/members/roles.server";
import { competitionResultsOf } from "~/competitions/judging/awards.server";
import { listParticipatingEvents } from "~/attendance/my-events.server";
import { photoOf, saveProfile, setOwnPhoto } from "~/members/user.server";
import { MESSAGES } from "~/messages";
import { releaseAfterChange } from "~/uploads/upload.server";
import { Refusal } from "~/kernel/errors";

interface Post {
  request: Request;
  context: AppLoadContext;
  form: FormData;
  user: User;
}

/** What the page shows: the member's profile, events, waiting lists, calendar and mail choices. */
export async function loadProfile(request: Request, user: User, context: AppLoadContext) {
  const params = new URL(request.url).searchParams;
  const editing = params.get("editar") === "1";
  const confirmingDelete = params.get("eliminar") === "1";
  const [events, waiting, roles, competitionResults] = await Promise.all([
    listParticipatingEvents(context.db, user.id, context.now()),
    listWaitingEvents(context.db, user.id),
    rolesOf(context.db, user, user.id),
    competitionResultsOf(context.db, user.id),
  ]);
  const now = context.now();
  return {
    editing,
    confirmingDelete,
    timeZone: context.config.siteTimezone,
    profile: {
      displayName: user.displayName,
      email: user.email,
      photoURL: photoOf(user),
      hasOwnPhoto: user.ownPhotoUrl !== null,
      nombreCompleto: user.nombreCompleto,
      fechaNacimiento: user.fechaNacimiento,
      pais: user.pais,
      ciudad: user.ciudad,
      genero: user.genero,
      habilidades: user.habilidades,
    },
    // Past events stay: the member's attendance history ('Asistió' or 'Inscrito').
    events: await Promise.all(
      events.map(async (e) => {
        const ended = hasEnded(e, now);
        const pass =
          !ended && e.tipoEvento !== "Virtual"
            ? await memberPass(context.db, context.config.sessionSecret, e, user.id)
            : null;
        return {
          id: e.id,
          nombreEvento: e.nombreEvento,
          startsAt: e.startsAt.toISOString(),
          ended,
          attended: e.checkedInAt !== null,
          sessions: { attended: e.sessionsAttended, total: e.sessionsTotal },
          // The certificate: for those who attended the event's share of sessions (decision 044).
          certificate:
            ended && reachesShare(e.sessionsAttended, e.sessionsTotal, e.certificateShare),
          // The pass for the door of each upcoming event with one.
          checkIn: pass,
          // The reminder to send oneself or a group by WhatsApp (decision 047).
          reminder: ended
            ? null
            : reminderText({
                nombreEvento: e.nombreEvento,
                startsAt: e.next?.startsAt ?? e.startsAt,
                endsAt: e.next?.endsAt ?? e.endsAt,
                place: eventPlace(e),
                code: pass?.valid ? pass.code : null,
                url: `${context.config.publicUrl.origin}/detalles/${e.id}`,
                timeZone: context.config.siteTimezone,
              }),
        };
      }),
    ),
    waiting: waiting.map((w) => ({
      id: w.id,
      nombreEvento: w.nombreEvento,
      startsAt: w.startsAt.toISOString(),
      position: w.position,
    })),
    hasCalendarFeed: user.calendarTokenHash !== null,
    mailTopics: topicsOn(user),
    isAdmin: user.isAdmin,
    competitionResults,
    roles: roles.map((r) => ({
      grantId: r.grantId,
      kind: r.kind,
      label: r.label,
      eventId: r.eventId,
      eventName: r.eventName,
      categoryId: r.categoryId,
      categoryName: r.categoryName,
    })),
  };
}

/** 'Eliminar mi cuenta', posted from its confirmation dialog. */
async function deleteOwnAccount({ request, context, form, user }: Post) {
  if (form.get("confirmar") !== "eliminar") {
    return data(
      { intent: "deleteAccount" as const, formError: MESSAGES.accountDeleteUnconfirmed },
      { status: 400 },
    );
  }
  try {
    await deleteAccount(context.db, user, context.now(), sitePrivateStorage(context.config));
  } catch (error) {
    if (error instanceof Refusal) {
      return data(
        { intent: "deleteAccount" as const, formError: error.message },
        { status: error.status },
      );
    }
    console.error("No se pudo eliminar la cuenta:", error);
    return data(
      { intent: "deleteAccount" as const, formError: MESSAGES.accountDeleteFailed },
      { status: 500 },
    );
  }
  await releaseAfterChange(context, user.ownPhotoUrl);
  // The session rows went with the account; the browser forgets its cookie, and the device what
  // the site stored on it (the member's passes, decision 050), too.
  const settings = cookieSettings(context);
  const ended = await destroySession(context.db, request, settings);
  return forgetDeviceCopy(redirectWithFlash(context, "/", "accountDeleted", [ended]), settings);
}

/** 'Quitar mi foto': only ever the member's own photo, back to the one their account brought. */
async function removePhoto({ context, user }: Post) {
  await releaseAfterChange(context, await setOwnPhoto(context.db, user, null));
  return redirectWithFlash(context, "/profile", "photoRemoved");
}

/** 'Renovar enlace' of the private calendar feed: a new address; the old one stops working. */
async function renewCalendar({ context, user }: Post) {
  const token = await renewCalendarToken(context.db, user);
  const link = `${context.config.publicUrl.origin}/calendario/${token}/eventos.ics`;
  return data(
    { intent: "renewCalendar" as const, calendarLink: link },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** 'Correos': the kinds of mail the member keeps. */
async function saveMailChoices({ context, form, user }: Post) {
  const result = parseForm(MailPreferencesSchema, form, { listFields: ["activos"] });
  if (!result.ok) {
    return data(
      {
        intent: "mailPreferences" as const,
        formError: result.formError ?? Object.values(result.fieldErrors)[0] ?? null,
      },
      { status: 400 },
    );
  }
  await saveMailPreferences(context.db, user, result.data.activos);
  return redirectWithFlash(context, "/profile", "mailPreferencesSaved");
}

/** 'Cerrar sesión en todos mis dispositivos'. */
async function logoutEverywhere({ request, context, user }: Post) {
  await destroyAllSessions(context.db, user.id);
  const settings = cookieSettings(context);
  const ended = await destroySession(context.db, request, settings);
  // This device signs out too, so it forgets what the site stored on it, as 'Cerrar Sesión' does.
  return forgetDeviceCopy(
    redirectWithFlash(context, "/login", "signedOutEverywhere", [ended]),
    settings,
  );
}

/** 'Editar Perfil', the form without an intent (§2's fields). */
async function saveProfileForm({ context, form, user }: Post) {
  const result = parseForm(ProfileSchema, form);
  if (!result.ok) {
    return data(
      { fieldErrors: result.fieldErrors, formError: result.formError, values: result.values },
      { status: 400 },
    );
  }
  try {
    await saveProfile(context.db, user.id, result.data);
  } catch (error) {
    console.error("No se pudo actualizar el perfil:", error);
    return data(
      { fieldErrors: {}, formError: MESSAGES.profileUpdateFailed, values: result.data },
      { status: 500 },
    );
  }
  return redirectWithFlash(context, "/profile", "profileUpdated");
}

const PROFILE_ACTIONS = {
  deleteAccount: deleteOwnAccount,
  photoRemove: removePhoto,
  renewCalendar,
  mailPreferences: saveMailChoices,
  logoutEverywhere,
};

/**
 * Runs the handler the form's `intent` names. The profile form itself has none; a post with an
 * intent of no handler goes to it too, whose schema refuses the unknown field.
 */
export function profileAction(
  request: Request,
  user: User,
  form: FormData,
  context: AppLoadContext,
) {
  const intent = String(form.get("intent") ?? "");
  const handler = Object.hasOwn(PROFILE_ACTIONS, intent)
    ? PROFILE_ACTIONS[intent as keyof typeof PROFILE_ACTIONS]
    : saveProfileForm;
  return handler({ request, context, form, user });
}
