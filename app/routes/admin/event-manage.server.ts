// One event's management page (/admin/eventos/:id) on the server: for its organisers and admins.
// What it shows (the event form, gallery, door hours, staff, links to participants and check-in)
// and its posts; every change is decided by the model functions it calls.
import { data, type AppLoadContext } from "react-router";
import type { EventFormValues } from "~/events/components/event-form";
import { setCertificateShare } from "~/attendance/certificate-share.server";
import { setDoorWindow } from "~/attendance/door-window.server";
import { getEvent } from "~/events/event.server";
import { redirectWithFlash } from "~/flash.server";
import { fieldErrorOf, Refusal } from "~/kernel/errors";
import { notFound } from "~/kernel/not-found";
import { zonedDateTime } from "~/kernel/time";
import {
  addSession,
  cancelSession,
  generateSessions,
  EventSessionError,
  updateSession,
} from "~/events/event-sessions.server";
import { MESSAGES } from "~/messages";
import type { SessionUser } from "~/guards.server";
import { changeStaff, staffOf } from "~/routes/events/detail.server";
import { eventPageAction } from "./panel.server";
import { may, mayAdminister } from "~/kernel/permissions";
import { sectionHref, sectionOf } from "./event-sections";
import {
  createStaffLink,
  defaultExpiry,
  expiryField,
  listStaffLinks,
  revokeStaffLink,
  staffLinkPath,
} from "~/members/staff-links.server";

export async function loadEventManagement(
  request: Request,
  eventId: string,
  segment: string | undefined,
  user: SessionUser,
  context: AppLoadContext,
) {
  const section = sectionOf(segment);
  const event = await getEvent(context.db, eventId);
  if (!event || !section) notFound(MESSAGES.eventNotFound);
  const zone = context.config.siteTimezone;
  const params = new URL(request.url).searchParams;
  // Each section reads only what it shows.
  const eventStaff = section === "personal" ? await staffOf(event.id, user, context) : null;
  const removingId = params.get("quitar");
  const now = context.now();
  const staffLinks =
    section === "horario" && may(user, "event.staffLinks", { eventId: event.id, now })
      ? {
          links: (await listStaffLinks(context.db, user, event.id, now)).map((l) => ({
            id: l.id,
            label: l.label,
            state: l.state,
            expiresAt: l.expiresAt.toISOString(),
            revokedAt: l.revokedAt?.toISOString() ?? null,
            createdByName: l.createdByName,
          })),
          defaultExpiry: expiryField(defaultExpiry(event), zone),
        }
      : null;
  return data(
    {
      search: params.toString(),
      section,
      timeZone: zone,
      // Back to the admin panel when it opens for this person, else to their roles (decision 071).
      panel: mayAdminister(user),
      event: {
        id: event.id,
        nombreEvento: event.nombreEvento,
        startsAt: event.startsAt.toISOString(),
        endsAt: event.endsAt.toISOString(),
        doorHoursBefore: event.doorHoursBefore,
        doorHoursAfter: event.doorHoursAfter,
        certificateShare: event.certificateShare,
      },
      values: {
        nombreEvento: event.nombreEvento,
        ubicacionEvento: event.ubicacionEvento,
        tipoEvento: event.tipoEvento,
        enlacesVirtuales: event.enlacesVirtuales,
        fechaEvento: event.fechaEvento,
        horaEvento: event.horaEvento,
        fechaFin: zonedDateTime(event.endsAt, zone).date,
        horaFin: zonedDateTime(event.endsAt, zone).time,
        capacity: event.capacity,
        enlaceGrupo: event.chatLink ?? "",
        imagenEnlace: event.imagenEnlace,
        ubicacionEspecifica: event.ubicacionEspecifica ?? "",
        descripcion: event.descripcion,
      } satisfies EventFormValues,
      gallery:
        section === "galeria"
          ? { id: event.id, nombreEvento: event.nombreEvento, images: event.gallery }
          : null,
      removingImage:
        section === "galeria" && removingId !== null
          ? (event.gallery.find((i) => i.id === removingId) ?? null)
          : null,
      // Its sessions (decision 043), as the editor shows and fills them, in SITE_TIMEZONE.
      sessions: event.sessions.map((s) => ({
        id: s.id,
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
        fecha: zonedDateTime(s.startsAt, zone).date,
        inicio: zonedDateTime(s.startsAt, zone).time,
        fin: zonedDateTime(s.endsAt, zone).time,
        place: s.place,
        link: s.link,
        cancelled: s.cancelledAt !== null,
      })),
      editingSession: params.get("sesion"),
      eventStaff,
      staffLinks,
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** The session editor's forms (decision 043). */
const EVENT_SESSION_INTENTS = new Set([
  "addSession",
  "generateSessions",
  "updateSession",
  "cancelSession",
]);

/** What a refused session form had, to show it again as typed. */
function eventSessionValues(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [
    "sessionId",
    "fecha",
    "inicio",
    "fin",
    "lugar",
    "enlace",
    "regla",
    "desde",
    "hasta",
    "semanas",
    "duracion",
  ]) {
    const value = form.get(name);
    if (typeof value === "string") out[name] = value;
  }
  out.dias = form.getAll("dias").filter((d) => typeof d === "string");
  return out;
}

/** A field sent once; null when it came several times (a malformed post). */
function single(form: FormData, name: string) {
  const values = form.getAll(name);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : null;
}

type Reply = {
  intent: string;
  message?: string;
  /** A staff link just made: its address, shown this once. */
  created?: { label: string; url: string; eventName: string; expiresAt: string };
  fieldErrors?: Record<string, string>;
  values?: Record<string, unknown>;
  eventId?: string;
};

export async function eventManagementAction(
  eventId: string,
  form: FormData,
  user: SessionUser,
  context: AppLoadContext,
) {
  const answered = await eventPageAction(eventId, form, user, context);
  if (answered) return answered;
  const intent = String(form.get("intent") ?? "");
  const at = (section: Parameters<typeof sectionHref>[1], anchor: string) =>
    `${sectionHref(eventId, section)}#${anchor}`;
  try {
    if (intent === "doorWindow") {
      const hours = (name: string) => {
        const raw = form.get(name);
        return typeof raw === "string" && /^\d{1,3}$/.test(raw.trim()) ? Number(raw) : NaN;
      };
      await setDoorWindow(context.db, user, eventId, hours("antes"), hours("despues"));
      return redirectWithFlash(context, at("horario", "puerta-title"), "doorWindowSaved");
    }
    if (intent === "certificateShare") {
      await setCertificateShare(
        context.db,
        user,
        eventId,
        { give: form.get("certificado"), share: form.get("porcentaje") },
        context.now(),
      );
      return redirectWithFlash(
        context,
        at("certificado", "certificado-title"),
        "certificateShareSaved",
      );
    }
    if (intent === "createStaffLink") {
      const { link, token } = await createStaffLink(
        context.db,
        context.config.sessionSecret,
        user,
        eventId,
        { label: single(form, "nombre"), expiresAt: single(form, "vence") },
        context.config.siteTimezone,
        context.now(),
      );
      const event = await getEvent(context.db, eventId);
      return data<Reply>(
        {
          intent,
          created: {
            label: link.label,
            url: new URL(staffLinkPath(token), context.config.publicUrl.origin).toString(),
            eventName: event?.nombreEvento ?? "",
            expiresAt: link.expiresAt.toISOString(),
          },
        },
        { headers: { "Cache-Control": "no-store" } },
      );
    }
    if (intent === "revokeStaffLink") {
      await revokeStaffLink(context.db, user, eventId, single(form, "linkId"), context.now());
      return redirectWithFlash(context, at("horario", "enlaces-title"), "staffLinkRevoked");
    }
    if (EVENT_SESSION_INTENTS.has(intent)) {
      const zone = context.config.siteTimezone;
      const session = {
        fecha: single(form, "fecha"),
        inicio: single(form, "inicio"),
        fin: single(form, "fin"),
        lugar: single(form, "lugar"),
        enlace: single(form, "enlace"),
      };
      const anchor = at("sesiones", "sesiones-title");
      if (intent === "addSession") {
        await addSession(context.db, user, eventId, session, zone);
        return redirectWithFlash(context, anchor, "sessionAdded");
      }
      if (intent === "updateSession") {
        const { told } = await updateSession(
          context.db,
          user,
          eventId,
          single(form, "sessionId"),
          session,
          zone,
          context.now(),
        );
        return redirectWithFlash(context, anchor, told ? "sessionMoved" : "sessionUpdated");
      }
      if (intent === "cancelSession") {
        const told = await cancelSession(
          context.db,
          user,
          eventId,
          single(form, "sessionId"),
          zone,
          context.now(),
        );
        return redirectWithFlash(
          context,
          anchor,
          told ? "sessionCancelled" : "pastSessionCancelled",
        );
      }
      await generateSessions(
        context.db,
        user,
        eventId,
        {
          regla: single(form, "regla"),
          desde: single(form, "desde"),
          hasta: single(form, "hasta"),
          semanas: single(form, "semanas"),
          dias: form.getAll("dias"),
          inicio: single(form, "inicio"),
          duracion: single(form, "duracion"),
          lugar: single(form, "lugar"),
          enlace: single(form, "enlace"),
        },
        zone,
      );
      return redirectWithFlash(context, anchor, "sessionsGenerated");
    }
    if (intent === "grantRole" || intent === "revokeRole") {
      const key = await changeStaff(intent, { eventId, user, context, form });
      return redirectWithFlash(context, at("personal", "personal-title"), key);
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const linkForm = intent === "createStaffLink" || intent === "revokeStaffLink";
    // An unknown session is answered next to the sessions, like any refusal of theirs.
    const sessionForm = EVENT_SESSION_INTENTS.has(intent) && error instanceof EventSessionError;
    if (error.status === 404 && !(intent === "grantRole") && !linkForm && !sessionForm)
      notFound(error.message);
    return data<Reply>(
      {
        intent,
        message: error.message,
        fieldErrors: fieldErrorOf(error),
        values:
          intent === "createStaffLink"
            ? { nombre: String(form.get("nombre") ?? ""), vence: String(form.get("vence") ?? "") }
            : EVENT_SESSION_INTENTS.has(intent)
              ? eventSessionValues(form)
              : undefined,
      },
      { status: error.status },
    );
  }
  return data<Reply>({ intent, message: MESSAGES.unknownAction }, { status: 400 });
}
