// The messages themselves (docs/decisions/021-mail.md): Spanish, plain text plus simple HTML made
// from the same blocks, the event's .ics attached where the mail is about an event, and the
// headers every mail carries: Message-ID from the row (a retry is the same message), and the
// one-click unsubscribe of RFC 8058.
import { chatLinkLabel } from "~/events/event-place";
import { isHttpUrl } from "~/kernel/checks";
import type { MailComposerOptions } from "nodemailer/lib/mail-composer";
import { ALL_TOPICS, MAIL_TOPIC_LABELS } from "~/mail/topics";
import { formatDateTime, formatDateTimeRange, formatTime, timeZoneLabel } from "~/kernel/time";
import { site as siteCopy } from "~/site/copy/site";
import type { Config } from "~/kernel/config.server";
import { icsCalendar, type IcsEvent } from "~/events/ics.server";
import {
  snapshotToEvent,
  snapshotToSession,
  TOPIC_OF,
  TRANSACTIONAL_KINDS,
  type QueuedMail,
} from "./mail.server";
import { formatBs } from "~/payments/money";

/** What the messages need of the configuration. */
export function mailSite(config: Pick<Config, "mail" | "publicUrl" | "siteTimezone">): MailSite {
  return {
    origin: config.publicUrl.origin,
    hostname: config.publicUrl.hostname,
    from: config.mail.from,
    timeZone: config.siteTimezone,
  };
}

export interface MailSite {
  /** The public origin, for links. */
  origin: string;
  hostname: string;
  from: string;
  timeZone: string;
}

/**
 * The site's colours in mail (app/styles/tokens.css): the page's night blue as the band with the
 * logo and the site's name, and the buttons in the site's own accent with its dark text (11.3:1), as
 * on the site, edged in a deeper blue so the button stands out on a white body (5.9:1, also the
 * colour of plain links) in every mail program.
 */
export const MAIL_COLOURS = {
  band: "#0b1020",
  bandText: "#f4f6fb",
  accent: "#7dd3fc",
  onAccent: "#06121f",
  accentEdge: "#0369a1",
  text: "#111827",
  muted: "#4b5563",
  rule: "#d1d5db",
  quote: "#f4f4f8",
} as const;

/** The logo in the band: a PNG (mail programs do not show SVG), from the site itself. */
export const MAIL_LOGO_PATH = "/icons/logo-96.png";

/** A message as blocks, written out once as text and once as HTML. */
interface Draft {
  subject: string;
  paragraphs: string[];
  /** Label and value lines (Cuándo, Dónde…). */
  details?: [string, string][];
  /** The main link of the message. */
  action?: { label: string; url: string };
  /** A second link, under the first: the event's group chat (decision 047). */
  secondary?: { label: string; url: string };
  /** The message typed by an admin, kept as typed (shown as text, never as HTML). */
  quoted?: string;
  /** Why the member receives it (the footer). */
  reason: string;
}

function placeOf(event: Pick<IcsEvent, "ubicacionEvento" | "ubicacionEspecifica" | "tipoEvento">) {
  const where = [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  if (event.tipoEvento === "Virtual") return "En línea";
  return event.tipoEvento === "Hibrido" ? `${where} y en línea` : where;
}

function eventDetails(event: IcsEvent, site: MailSite): [string, string][] {
  const lines: [string, string][] = [
    [
      "Cuándo",
      `${formatDateTimeRange(event.startsAt, event.endsAt, site.timeZone)} (${timeZoneLabel(site.timeZone, event.startsAt)})`,
    ],
    ["Dónde", placeOf(event)],
  ];
  const sessions = event.sessions?.length ?? 0;
  if (sessions > 1)
    lines.splice(1, 0, [
      "Sesiones",
      `${sessions} (las fechas de cada una, en la página del evento)`,
    ]);
  if (event.tipoEvento !== "Presencial")
    for (const link of event.enlacesVirtuales) lines.push(["Enlace", link]);
  return lines;
}

function draftOf(mail: QueuedMail, site: MailSite): Draft {
  const snapshot = mail.data.event;
  const event = snapshot ? snapshotToEvent(snapshot) : null;
  const eventUrl = event ? `${site.origin}/detalles/${event.id}` : site.origin;
  const name = event ? `«${event.nombreEvento}»` : "";
  const details = event ? eventDetails(event, site) : undefined;
  const seeEvent = { label: "Ver el evento", url: eventUrl };
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
    case "paymentPending":
    case "receiptReceived":
    case "paymentConfirmed":
    case "paymentRefused":
    case "holdExpiring":
    case "holdExpired":
      return paymentDraft(mail, name, site, details);
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
    case "teamPlace": {
      const team = mail.data.team!;
      return {
        subject: `¡Tu equipo tiene lugar! ${event!.nombreEvento}`,
        paragraphs: [
          `Se liberó un lugar en la categoría «${team.category}» de ${name} y es del equipo «${team.name}»: salió de la lista de espera.`,
          "Ahora la organización revisa el equipo para aprobarlo. Completa lo que falte (integrantes, entrenador) desde la página del equipo; si ya no pueden participar, retíralo para que el lugar pase al siguiente equipo.",
        ],
        details,
        action: { label: "Ver el equipo", url: `${site.origin}/equipos/${team.id}` },
        reason: "tu equipo estaba en la lista de espera de esta categoría",
      };
    }
    case "welcome":
      return {
        subject: `Te damos la bienvenida a ${siteCopy.name}`,
        paragraphs: [
          `Tu perfil está completo: ya eres parte de ${siteCopy.name}, ${lowerFirst(siteCopy.tagline)}.`,
          "Inscríbete en los próximos eventos; te escribiremos para confirmarlo, recordártelo y avisarte si algo cambia. En tu perfil eliges qué correos quieres recibir.",
        ],
        action: { label: "Ver los próximos eventos", url: `${site.origin}/eventos` },
        reason: `completaste tu perfil en ${siteCopy.name}`,
      };
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

/** A payment's step (decision 048): what happened, and what the member does now. */
function paymentDraft(
  mail: QueuedMail,
  name: string,
  site: MailSite,
  details: [string, string][] | undefined,
): Draft {
  const payment = mail.data.payment!;
  const event = mail.data.event!;
  const amount = formatBs(payment.amountCents);
  const until = payment.heldUntil ? formatDateTime(payment.heldUntil, site.timeZone) : "";
  // A team's fee (decision 052) is paid on the same page, for the team; its place is the team's.
  const team = payment.team;
  const pay = team
    ? {
        label: "Pagar la cuota del equipo",
        url: `${site.origin}/detalles/${event.id}/pago?equipo=${team.id}`,
      }
    : { label: "Pagar mi inscripción", url: `${site.origin}/detalles/${event.id}/pago` };
  if (team) return teamFeeDraft(mail.kind, payment, event, name, site, pay, details);
  const facts: [string, string][] = [
    ["Monto", amount],
    ["Código para la glosa", payment.reference],
    ...(details ?? []),
  ];
  const how = [
    `Paga ${amount} por QR desde la app de tu banco y escribe tu código ${payment.reference} en la glosa o descripción de la transferencia. Después envía el comprobante (una foto o el PDF) o el número de transacción desde la página de pago.`,
    ...(payment.instructions ? [payment.instructions] : []),
  ];
  const account = [payment.accountHolder, payment.bank].filter(Boolean).join(" · ");
  if (account) facts.push(["Cuenta", account]);
  const reason = "te inscribiste en este evento, que tiene precio";
  switch (mail.kind) {
    case "paymentPending":
      return {
        subject: `${payment.fromWaitlist ? "¡Tienes una plaza!" : "Reserva tu plaza:"} ${event.nombreEvento}`,
        paragraphs: [
          payment.fromWaitlist
            ? `Se liberó una plaza en ${name} y la reservamos para ti hasta el ${until}: Pendiente de pago.`
            : `Reservamos tu plaza en ${name} hasta el ${until}: Pendiente de pago.`,
          ...how,
          "Si no pagas a tiempo, la plaza pasa a la siguiente persona en espera.",
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "receiptReceived":
      return {
        subject: `Recibimos tu pago: ${event.nombreEvento}`,
        paragraphs: [
          `Recibimos el comprobante de tu pago para ${name}. Tesorería lo revisará y te escribiremos cuando esté confirmado; mientras tanto tu plaza sigue reservada.`,
        ],
        details: facts,
        action: { label: "Ver mi pago", url: pay.url },
        reason,
      };
    case "paymentConfirmed":
      return {
        subject: `${payment.status === "waived" ? "Tienes una beca" : "Pago confirmado"}: ${event.nombreEvento}`,
        paragraphs: [
          payment.status === "waived"
            ? `Tesorería te dio una beca para ${name}: no necesitas pagar. Tu inscripción está confirmada.`
            : `Tesorería confirmó tu pago de ${amount} para ${name}. Tu inscripción está confirmada. Te esperamos.`,
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
    case "paymentRefused":
      return {
        subject: `Revisa tu pago: ${event.nombreEvento}`,
        paragraphs: [
          `Tesorería no pudo confirmar tu pago para ${name}.`,
          `Motivo: ${payment.reason ?? ""}`,
          `Tu plaza sigue reservada hasta el ${until}. Envía el comprobante correcto desde la página de pago.`,
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "holdExpiring":
      return {
        subject: `Tu reserva vence pronto: ${event.nombreEvento}`,
        paragraphs: [
          `Tu plaza en ${name} está reservada hasta el ${until} y todavía no recibimos tu pago.`,
          ...how,
        ],
        details: facts,
        action: pay,
        reason,
      };
    default:
      return {
        subject: `Tu reserva venció: ${event.nombreEvento}`,
        paragraphs: [
          `No recibimos tu pago a tiempo y tu plaza en ${name} pasó a la siguiente persona en espera.`,
          "Si todavía quedan plazas, puedes inscribirte de nuevo desde la página del evento.",
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
  }
}

/** A team's fee's step (decision 052): as a registration's, said of the team's place. */
function teamFeeDraft(
  kind: QueuedMail["kind"],
  payment: NonNullable<QueuedMail["data"]["payment"]>,
  event: NonNullable<QueuedMail["data"]["event"]>,
  name: string,
  site: MailSite,
  pay: { label: string; url: string },
  details: [string, string][] | undefined,
): Draft {
  const team = `«${payment.team!.name}»`;
  const amount = formatBs(payment.amountCents);
  const until = payment.heldUntil ? formatDateTime(payment.heldUntil, site.timeZone) : "";
  const facts: [string, string][] = [
    ["Equipo", payment.team!.name],
    ["Monto", amount],
    ["Código para la glosa", payment.reference],
    ...(details ?? []),
  ];
  const account = [payment.accountHolder, payment.bank].filter(Boolean).join(" · ");
  if (account) facts.push(["Cuenta", account]);
  const how = [
    `Paga ${amount} por QR desde la app de tu banco y escribe el código ${payment.reference} en la glosa o descripción de la transferencia. Después envía el comprobante (una foto o el PDF) o el número de transacción desde la página de pago.`,
    ...(payment.instructions ? [payment.instructions] : []),
  ];
  const reason = "inscribiste un equipo en una categoría con cuota";
  const teamPage = { label: "Ver el equipo", url: `${site.origin}/equipos/${payment.team!.id}` };
  switch (kind) {
    case "paymentPending":
      return {
        subject: `${payment.fromWaitlist ? `¡El equipo ${team} tiene lugar!` : `Cuota del equipo ${team}:`} ${event.nombreEvento}`,
        paragraphs: [
          payment.fromWaitlist
            ? `Se liberó un lugar en ${name} para el equipo ${team}, que estaba en la lista de espera, y lo reservamos hasta el ${until}: Pendiente de pago.`
            : `Reservamos el lugar del equipo ${team} en ${name} hasta el ${until}: Pendiente de pago.`,
          ...how,
          "Si no se paga a tiempo, el equipo se retira y su lugar queda libre.",
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "receiptReceived":
      return {
        subject: `Recibimos el pago del equipo ${team}: ${event.nombreEvento}`,
        paragraphs: [
          `Recibimos el comprobante de la cuota del equipo ${team} para ${name}. Tesorería lo revisará y te escribiremos cuando esté confirmado; mientras tanto su lugar sigue reservado.`,
        ],
        details: facts,
        action: { label: "Ver el pago", url: pay.url },
        reason,
      };
    case "paymentConfirmed":
      return {
        subject: `${payment.status === "waived" ? "Beca para el equipo" : "Cuota confirmada"} ${team}: ${event.nombreEvento}`,
        paragraphs: [
          payment.status === "waived"
            ? `Tesorería dio una beca al equipo ${team} para ${name}: no necesita pagar la cuota.`
            : `Tesorería confirmó la cuota de ${amount} del equipo ${team} para ${name}.`,
        ],
        details: facts,
        action: teamPage,
        reason,
      };
    case "paymentRefused":
      return {
        subject: `Revisa el pago del equipo ${team}: ${event.nombreEvento}`,
        paragraphs: [
          `Tesorería no pudo confirmar la cuota del equipo ${team} para ${name}.`,
          `Motivo: ${payment.reason ?? ""}`,
          `Su lugar sigue reservado hasta el ${until}. Envía el comprobante correcto desde la página de pago.`,
        ],
        details: facts,
        action: pay,
        reason,
      };
    case "holdExpiring":
      return {
        subject: `La reserva del equipo ${team} vence pronto: ${event.nombreEvento}`,
        paragraphs: [
          `El lugar del equipo ${team} en ${name} está reservado hasta el ${until} y todavía no recibimos la cuota.`,
          ...how,
        ],
        details: facts,
        action: pay,
        reason,
      };
    default:
      return {
        subject: `La reserva del equipo ${team} venció: ${event.nombreEvento}`,
        paragraphs: [
          `No recibimos la cuota a tiempo: el equipo ${team} se retiró de ${name} y su lugar quedó libre.`,
          "Si todavía quedan lugares, puedes inscribir el equipo de nuevo desde la página del evento.",
        ],
        details: facts,
        action: { label: "Ver el evento", url: `${site.origin}/detalles/${event.id}` },
        reason,
      };
  }
}

/** "Comunidad de…" as it reads inside a sentence: "…parte de Ayllu, comunidad de…". */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The unsubscribe link of a mail: its topic, or every topic for the welcome mail. */
export function unsubscribeUrl(mail: Pick<QueuedMail, "kind" | "mailToken">, origin: string) {
  return `${origin}/correo/baja/${mail.mailToken}/${TOPIC_OF[mail.kind] ?? ALL_TOPICS}`;
}

/** The footer: why the mail came, and the links to stop it (their words for the HTML). */
function footerLines(
  mail: QueuedMail,
  draft: Draft,
  site: MailSite,
): { text: string; link?: { label: string; url: string } }[] {
  const topic = TOPIC_OF[mail.kind];
  // A payment's step cannot be turned off: no link to stop it.
  if (TRANSACTIONAL_KINDS.has(mail.kind))
    return [
      { text: `Recibes este correo porque ${draft.reason}.` },
      { text: "Es un aviso de tu pago: llega aunque hayas desactivado los otros correos." },
    ];
  const stop = topic
    ? `Para no recibir más correos de este tipo (${MAIL_TOPIC_LABELS[topic].toLowerCase()})`
    : "Para no recibir más correos nuestros";
  return [
    { text: `Recibes este correo porque ${draft.reason}.` },
    { text: stop, link: { label: "darte de baja", url: unsubscribeUrl(mail, site.origin) } },
    {
      text: "Elige qué correos recibes en tu perfil",
      link: { label: "tu perfil", url: `${site.origin}/profile` },
    },
  ];
}

function greeting(mail: QueuedMail) {
  return mail.name ? `Hola, ${mail.name}:` : "Hola:";
}

function textOf(mail: QueuedMail, draft: Draft, site: MailSite): string {
  const blocks = [greeting(mail), ...draft.paragraphs];
  if (draft.quoted !== undefined) blocks.push(draft.quoted);
  if (draft.details) blocks.push(draft.details.map(([k, v]) => `${k}: ${v}`).join("\n"));
  if (draft.action) blocks.push(`${draft.action.label}: ${draft.action.url}`);
  if (draft.secondary) blocks.push(`${draft.secondary.label}: ${draft.secondary.url}`);
  const footer = footerLines(mail, draft, site).map((line) =>
    line.link ? `${line.text}: ${line.link.url}` : line.text,
  );
  blocks.push(`—\n${siteCopy.name} · ${site.origin}\n${footer.join("\n")}`);
  return blocks.join("\n\n") + "\n";
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const paragraph = (html: string) => `<p style="margin:0 0 16px;line-height:1.5">${html}</p>`;

/** Simple HTML that mail programs show alike: one column, inline styles, no images. */
function htmlOf(mail: QueuedMail, draft: Draft, site: MailSite): string {
  const parts = [
    paragraph(escapeHtml(greeting(mail))),
    ...draft.paragraphs.map((p) => paragraph(escapeHtml(p))),
  ];
  if (draft.quoted !== undefined)
    parts.push(
      `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${MAIL_COLOURS.accentEdge};background:${MAIL_COLOURS.quote};white-space:pre-wrap;line-height:1.5">${escapeHtml(draft.quoted)}</blockquote>`,
    );
  if (draft.details)
    parts.push(
      `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse">${draft.details
        .map(
          ([k, v]) =>
            `<tr><th scope="row" style="text-align:left;padding:4px 12px 4px 0;vertical-align:top;white-space:nowrap">${escapeHtml(k)}</th><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`,
        )
        .join("")}</table>`,
    );
  if (draft.action) parts.push(buttonHtml(draft.action));
  if (draft.secondary) parts.push(buttonHtml(draft.secondary));
  return pageHtml(draft.subject, parts, footerLines(mail, draft, site), site);
}

/** The main link as a button. */
function buttonHtml(action: { label: string; url: string }): string {
  return paragraph(
    `<a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:999px;border:1px solid ${MAIL_COLOURS.accentEdge};background:${MAIL_COLOURS.accent};color:${MAIL_COLOURS.onAccent};font-weight:600;text-decoration:none">${escapeHtml(action.label)}</a>`,
  );
}

/** Every mail's page: the band with the site's name, the body, the footer. */
function pageHtml(
  subject: string,
  parts: string[],
  footerLines: { text: string; link?: { label: string; url: string } }[],
  site: MailSite,
): string {
  const footer = footerLines.map((line) =>
    line.link
      ? `${escapeHtml(line.text)}: <a href="${escapeHtml(line.link.url)}" style="color:${MAIL_COLOURS.muted}">${escapeHtml(line.link.label)}</a>`
      : escapeHtml(line.text),
  );
  const band = `<div style="background:${MAIL_COLOURS.band};padding:16px 24px;border-radius:12px 12px 0 0"><a href="${escapeHtml(site.origin)}" style="color:${MAIL_COLOURS.bandText};font-size:20px;font-weight:700;text-decoration:none"><img src="${escapeHtml(site.origin + MAIL_LOGO_PATH)}" width="32" height="32" alt="" style="vertical-align:middle;margin-right:10px;border:0">${escapeHtml(siteCopy.name)}</a><div style="height:3px;margin-top:10px;background:${MAIL_COLOURS.accent};border-radius:2px"></div></div>`;
  const body = `<div style="padding:24px;border:1px solid ${MAIL_COLOURS.rule};border-top:none;border-radius:0 0 12px 12px">${parts.join("")}<hr style="border:none;border-top:1px solid ${MAIL_COLOURS.rule};margin:24px 0"><p style="margin:0;font-size:13px;line-height:1.5;color:${MAIL_COLOURS.muted}">${escapeHtml(siteCopy.name)} · ${escapeHtml(site.origin)}${footer.length ? `<br>${footer.join("<br>")}` : ""}</p></div>`;
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head><body style="margin:0;padding:16px;background:#ffffff;color:${MAIL_COLOURS.text};font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px"><div style="max-width:560px;margin:0 auto;overflow-wrap:anywhere">${band}${body}</div></body></html>`;
}

/** The whole message for nodemailer: headers, text, HTML and the .ics when about an event. */
/**
 * The mails of those with a place (joined, seat, reminder) lead to the event's group chat too, when
 * it has one (decision 047); the snapshot carries it only for those kinds.
 */
function withChatLink(draft: Draft, mail: QueuedMail): Draft {
  const link = mail.data.event?.chatLink;
  if (!link || !link.startsWith("https://") || !isHttpUrl(link)) return draft;
  return {
    ...draft,
    paragraphs: [
      ...draft.paragraphs,
      "El evento tiene un grupo para avisos y preguntas: únete con el enlace de abajo.",
    ],
    secondary: { label: chatLinkLabel(link), url: link },
  };
}

export function composeMail(mail: QueuedMail, site: MailSite): MailComposerOptions {
  const draft = withChatLink(draftOf(mail, site), mail);
  const event = mail.data.event ? snapshotToEvent(mail.data.event) : null;
  const cancelled =
    mail.kind === "deleted" ||
    mail.kind === "left" ||
    mail.kind === "sessionCancelled" ||
    mail.kind === "holdExpired";
  // The mail about a cancelled session carries that session alone, to be removed.
  // The mail about a moved session carries it as it is now, to update that one.
  const only =
    (mail.kind === "sessionCancelled" || mail.kind === "changed") && mail.data.session
      ? [snapshotToSession(mail.data.session)]
      : undefined;
  return {
    from: site.from,
    to: mail.name ? { name: mail.name, address: mail.email } : mail.email,
    subject: draft.subject,
    messageId: `<${mail.id}@${site.hostname}>`,
    text: textOf(mail, draft, site),
    html: htmlOf(mail, draft, site),
    headers: TRANSACTIONAL_KINDS.has(mail.kind)
      ? { "Auto-Submitted": "auto-generated" }
      : {
          "List-Unsubscribe": `<${unsubscribeUrl(mail, site.origin)}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "Auto-Submitted": mail.kind === "message" ? "no" : "auto-generated",
        },
    attachments: event
      ? [
          {
            filename: "evento.ics",
            contentType: `text/calendar; charset=utf-8; method=${cancelled ? "CANCEL" : "PUBLISH"}`,
            content: icsCalendar([event], site, undefined, cancelled, only),
          },
        ]
      : [],
  };
}

/**
 * The sign-in mail (transactional: it cannot be turned off and carries no unsubscribe link): the
 * link as a button and as text, when it expires, and that it can be ignored.
 */
export function composeSignInMail(
  link: { to: string; url: string; expiresAt: Date },
  site: MailSite,
): MailComposerOptions {
  const subject = `Tu enlace para iniciar sesión en ${siteCopy.name}`;
  const until = `${formatTime(link.expiresAt, site.timeZone)} (${timeZoneLabel(site.timeZone, link.expiresAt)})`;
  const intro = `Pediste entrar a ${siteCopy.name} con este correo. Usa este enlace para iniciar sesión:`;
  const expiry = `El enlace sirve una sola vez y caduca en 15 minutos, a las ${until}. Ábrelo en el mismo navegador donde lo pediste; en otro te pediremos confirmar.`;
  const ignore =
    "Si no fuiste tú, ignora este correo: nadie puede entrar sin abrir este enlace, y tu cuenta sigue igual.";
  const why = `Recibes este correo porque alguien escribió esta dirección para iniciar sesión en ${siteCopy.name}. Es un correo de servicio: se envía solo cuando se pide y no se puede desactivar.`;
  const text = [
    "Hola:",
    intro,
    link.url,
    expiry,
    ignore,
    `—\n${siteCopy.name} · ${site.origin}\n${why}`,
  ].join("\n\n");
  const html = pageHtml(
    subject,
    [
      paragraph("Hola:"),
      paragraph(escapeHtml(intro)),
      buttonHtml({ label: "Iniciar sesión", url: link.url }),
      paragraph(
        `Si el botón no funciona, copia esta dirección en tu navegador:<br><a href="${escapeHtml(link.url)}" style="color:${MAIL_COLOURS.accentEdge};word-break:break-all">${escapeHtml(link.url)}</a>`,
      ),
      paragraph(escapeHtml(expiry)),
      paragraph(escapeHtml(ignore)),
    ],
    [{ text: why }],
    site,
  );
  return {
    from: site.from,
    to: link.to,
    subject,
    text: text + "\n",
    html,
    headers: { "Auto-Submitted": "auto-generated" },
  };
}
