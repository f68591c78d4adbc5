// The events' mails (docs/decisions/021-mail.md): joined, left, a seat from the waiting list, the
// reminder, a change, a cancellation, the organisers' message. The mail domain lays them out and
// sends them (app/mail/compose.server.ts); the words are the events'.
import {
  cancelsCalendar,
  eventParts,
  placeOf,
  type Draft,
  type DraftWriter,
  type MailSite,
} from "~/mail/compose.server";
import { snapshotToSession, type MailKind, type QueuedMail } from "~/mail/mail.server";
import type { IcsEvent } from "~/kernel/ics.server";
import { formatDateTime, formatDateTimeRange, timeZoneLabel } from "~/kernel/time";

function eventDraft(mail: QueuedMail, site: MailSite): Draft {
  const { event, name, details, seeEvent } = eventParts(mail, site);
  const because = "participas en este evento";
  switch (mail.kind) {
    case "joined":
      return {
        subject: `Inscripción confirmada: ${event!.nombreEvento}`,
        paragraphs: [
          `Tu inscripción en ${name} está confirmada. Te esperamos.`,
          "Adjuntamos el evento para tu calendario. Si ya no puedes ir, deja tu lugar desde la página del evento, para que otra persona lo aproveche.",
        ],
        details,
        action: seeEvent,
        reason: "te inscribiste en este evento",
      };
    case "left":
      return {
        subject: `Dejaste de participar: ${event!.nombreEvento}`,
        paragraphs: [
          `Ya no estás inscrito en ${name}. El archivo adjunto lo quita de tu calendario.`,
          "Si fue un error, puedes volver a inscribirte desde la página del evento mientras haya plazas.",
        ],
        details,
        action: seeEvent,
        reason: "dejaste este evento",
      };
    case "seat":
      return {
        subject: `¡Tienes una plaza! ${event!.nombreEvento}`,
        paragraphs: [
          `Se liberó una plaza en ${name} y es tuya: ya estás inscrito.`,
          "Adjuntamos el evento para tu calendario. Si ya no puedes ir, deja tu plaza desde la página del evento, para la siguiente persona en espera.",
        ],
        details,
        action: seeEvent,
        reason: "estabas en la lista de espera de este evento",
      };
    case "reminder":
      return reminderDraft(mail, event!, name, site, details!, seeEvent, because);
    case "changed": {
      if (mail.data.session) return sessionChangedDraft(mail, name, site, seeEvent, because);
      const before = mail.data.before;
      const changes: [string, string][] = [];
      if (before && new Date(before.startsAt).getTime() !== event!.startsAt.getTime())
        changes.push(["Antes", formatDateTime(before.startsAt, site.timeZone)]);
      if (before?.endsAt && new Date(before.endsAt).getTime() !== event!.endsAt.getTime())
        changes.push(["Fin anterior", formatDateTime(before.endsAt, site.timeZone)]);
      if (before && placeOf(before) !== placeOf(event!))
        changes.push(["Lugar anterior", placeOf(before)]);
      return {
        subject: `Cambió el evento: ${event!.nombreEvento}`,
        paragraphs: [
          `Los organizadores cambiaron la fecha, la hora o el lugar de ${name}. Así queda:`,
        ],
        details: [...details!, ...changes],
        action: seeEvent,
        reason: because,
      };
    }
    case "deleted":
      return {
        subject: `Evento cancelado: ${event!.nombreEvento}`,
        paragraphs: [
          `Los organizadores cancelaron ${name}. Lo sentimos.`,
          "El archivo adjunto lo quita de tu calendario.",
        ],
        details,
        action: { label: "Ver los próximos eventos", url: `${site.origin}/eventos` },
        reason: "participabas en este evento o esperabas una plaza",
      };
    case "sessionCancelled": {
      const session = mail.data.session ? snapshotToSession(mail.data.session) : null;
      const when = session
        ? `${formatDateTimeRange(session.startsAt, session.endsAt, site.timeZone)} (${timeZoneLabel(site.timeZone, session.startsAt)})`
        : "";
      return {
        subject: `Sesión cancelada: ${event!.nombreEvento}`,
        paragraphs: [
          `Los organizadores cancelaron una sesión de ${name}: la del ${when}. Las demás sesiones siguen en pie.`,
          "El archivo adjunto la quita de tu calendario.",
        ],
        details: [["Sesión cancelada", when], ...details!],
        action: seeEvent,
        reason: "participas en este evento o esperas una plaza",
      };
    }
    case "message":
      return {
        subject: mail.data.asunto ?? `Mensaje sobre ${event!.nombreEvento}`,
        paragraphs: [
          `${mail.data.autor ?? "Los organizadores"} escribe a quienes participan en ${name}:`,
        ],
        quoted: mail.data.mensaje ?? "",
        details,
        action: seeEvent,
        reason: "participas en este evento o esperas una plaza",
      };
    case "waitlistJoined":
      return {
        subject: `Estás en la lista de espera: ${event!.nombreEvento}`,
        paragraphs: [
          `${name} está lleno y quedaste en su lista de espera.`,
          "Si se libera una plaza, es de la primera persona de la lista, y te escribiremos en cuanto sea tuya. Puedes salir de la lista desde la página del evento.",
        ],
        details,
        action: seeEvent,
        reason: "te anotaste en la lista de espera de este evento",
      };
    default:
      throw new Error(`No es un correo de los eventos: ${mail.kind}`);
  }
}

/**
 * A reminder: of the event, or of one session of a course or a club (decision 045), with which of
 * its sessions it is, and how to say one will miss it.
 */
function reminderDraft(
  mail: QueuedMail,
  event: IcsEvent,
  name: string,
  site: MailSite,
  details: [string, string][],
  action: Draft["action"],
  reason: string,
): Draft {
  const session = mail.data.session ? snapshotToSession(mail.data.session) : null;
  const total = event.sessions?.length ?? 0;
  if (!session || total < 2) {
    return {
      subject: `Recordatorio: ${event.nombreEvento}`,
      paragraphs: [`Te recordamos que pronto empieza ${name}.`],
      details,
      action,
      reason,
    };
  }
  const number = mail.data.sessionNumber ?? 0;
  const which = number > 0 ? `la sesión ${number} de ${total}` : "una sesión";
  const when = `${formatDateTimeRange(session.startsAt, session.endsAt, site.timeZone)} (${timeZoneLabel(site.timeZone, session.startsAt)})`;
  const lines: [string, string][] = [["Sesión", when]];
  if (session.place) lines.push(["Lugar de la sesión", session.place]);
  if (session.link) lines.push(["Enlace de la sesión", session.link]);
  return {
    subject: `Recordatorio: ${event.nombreEvento}, ${number > 0 ? `sesión ${number} de ${total}` : "próxima sesión"}`,
    paragraphs: [
      `Te recordamos que pronto empieza ${which} de ${name}.`,
      "Si no podrás ir a esta sesión, avísalo desde la página del evento: mantienes tu lugar.",
    ],
    details: [...lines, ...details.filter(([label]) => label !== "Cuándo")],
    action,
    reason,
  };
}

/** A session moved or relocated (`changed` with `data.session`): how it is now, and how it was. */
function sessionChangedDraft(
  mail: QueuedMail,
  name: string,
  site: MailSite,
  action: Draft["action"],
  reason: string,
): Draft {
  const session = snapshotToSession(mail.data.session!);
  const before = mail.data.sessionBefore ? snapshotToSession(mail.data.sessionBefore) : null;
  const when = (s: { startsAt: Date; endsAt: Date }) =>
    `${formatDateTimeRange(s.startsAt, s.endsAt, site.timeZone)} (${timeZoneLabel(site.timeZone, s.startsAt)})`;
  const details: [string, string][] = [["Sesión", when(session)]];
  if (session.place) details.push(["Lugar de la sesión", session.place]);
  if (session.link) details.push(["Enlace de la sesión", session.link]);
  if (before && when(before) !== when(session)) details.push(["Antes", when(before)]);
  if (before?.place && before.place !== session.place)
    details.push(["Lugar anterior", before.place]);
  return {
    subject: `Cambió una sesión: ${mail.data.event!.nombreEvento}`,
    paragraphs: [
      `Los organizadores cambiaron la fecha, la hora o el lugar de una sesión de ${name}. Así queda:`,
      "El archivo adjunto la actualiza en tu calendario.",
    ],
    details,
    action,
    reason,
  };
}

/** The events' kinds of mail, each with its writer. */
export const EVENT_DRAFTS = {
  joined: eventDraft,
  left: cancelsCalendar(eventDraft),
  seat: eventDraft,
  reminder: eventDraft,
  changed: eventDraft,
  deleted: cancelsCalendar(eventDraft),
  sessionCancelled: cancelsCalendar(eventDraft),
  message: eventDraft,
  waitlistJoined: eventDraft,
} as const satisfies Partial<Record<MailKind, DraftWriter>>;
