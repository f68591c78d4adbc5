// The messages themselves (docs/decisions/021-mail.md): Spanish, plain text plus simple HTML made
// from the same blocks, the event's .ics attached where the mail is about an event, and the
// headers every mail carries: Message-ID from the row (a retry is the same message), and the
// one-click unsubscribe of RFC 8058.
import { chatLinkLabel } from "~/kernel/chat-link";
import { isHttpUrl } from "~/kernel/checks";
import type { MailComposerOptions } from "nodemailer/lib/mail-composer";
import { ALL_TOPICS, MAIL_TOPIC_LABELS } from "~/mail/topics";
import { formatDateTimeRange, formatTime, timeZoneLabel } from "~/kernel/time";
import type { Config } from "~/kernel/config.server";
import type { Db } from "~/db/client.server";
import { icsCalendar, type IcsEvent } from "~/kernel/ics.server";
import {
  snapshotToEvent,
  snapshotToSession,
  TOPIC_OF,
  TRANSACTIONAL_KINDS,
  type MailKind,
  type QueuedMail,
} from "./mail.server";

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
export interface Draft {
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
  /**
   * The attached calendar file of the event the mail is about: "cancel" removes it (or the one
   * session the mail names) from the member's calendar; "publish", the default, adds or updates it.
   */
  calendar?: "publish" | "cancel";
}

/** The same writer, its calendar file removing the event (or the session) it names. */
export function cancelsCalendar(writer: DraftWriter): DraftWriter {
  return (mail, site) => ({ ...writer(mail, site), calendar: "cancel" });
}

/** The site as a mail's layout shows it: its address and its name. */
type NamedSite = MailSite & { name: string };

/** Writes one kind of mail from its outbox row. */
export type DraftWriter = (mail: QueuedMail, site: MailSite) => Draft;

/**
 * Every kind's words, from the domains that own them (app/mail-drafts.server.ts puts them
 * together): mail keeps the outbox, the layout and the sending, never a domain's copy.
 */
export interface MailDrafts {
  /** The site's name, in every mail's band, footer and the sign-in mail. */
  siteName: string;
  writers: Record<MailKind, DraftWriter>;
  /**
   * The domains' mails due by the clock, queued by the worker at each run besides the events'
   * reminders; each returns how many it queued.
   */
  queueDue: readonly ((
    db: Db,
    now: Date,
    hours: { holdReminderHours: number },
  ) => Promise<number>)[];
}

/** Where the event happens, in a mail's words ("En línea" for an event only online). */
export function placeOf(
  event: Pick<IcsEvent, "ubicacionEvento" | "ubicacionEspecifica" | "tipoEvento">,
) {
  const where = [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  if (event.tipoEvento === "Virtual") return "En línea";
  return event.tipoEvento === "Hibrido" ? `${where} y en línea` : where;
}

/** The lines about the event a mail is about: when, how many sessions, where, its links. */
export function eventDetails(event: IcsEvent, site: MailSite): [string, string][] {
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

/**
 * What most drafts say of the mail's event: the event (from the row's snapshot), its name in
 * quotes, the detail lines and the link to its page. Null parts for a mail about no event.
 */
export function eventParts(mail: QueuedMail, site: MailSite) {
  const snapshot = mail.data.event;
  const event = snapshot ? snapshotToEvent(snapshot) : null;
  const eventUrl = event ? `${site.origin}/detalles/${event.id}` : site.origin;
  return {
    event,
    name: event ? `«${event.nombreEvento}»` : "",
    details: event ? eventDetails(event, site) : undefined,
    seeEvent: { label: "Ver el evento", url: eventUrl },
  };
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

function textOf(mail: QueuedMail, draft: Draft, site: NamedSite): string {
  const blocks = [greeting(mail), ...draft.paragraphs];
  if (draft.quoted !== undefined) blocks.push(draft.quoted);
  if (draft.details) blocks.push(draft.details.map(([k, v]) => `${k}: ${v}`).join("\n"));
  if (draft.action) blocks.push(`${draft.action.label}: ${draft.action.url}`);
  if (draft.secondary) blocks.push(`${draft.secondary.label}: ${draft.secondary.url}`);
  const footer = footerLines(mail, draft, site).map((line) =>
    line.link ? `${line.text}: ${line.link.url}` : line.text,
  );
  blocks.push(`—\n${site.name} · ${site.origin}\n${footer.join("\n")}`);
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
function htmlOf(mail: QueuedMail, draft: Draft, site: NamedSite): string {
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
  site: NamedSite,
): string {
  const footer = footerLines.map((line) =>
    line.link
      ? `${escapeHtml(line.text)}: <a href="${escapeHtml(line.link.url)}" style="color:${MAIL_COLOURS.muted}">${escapeHtml(line.link.label)}</a>`
      : escapeHtml(line.text),
  );
  const band = `<div style="background:${MAIL_COLOURS.band};padding:16px 24px;border-radius:12px 12px 0 0"><a href="${escapeHtml(site.origin)}" style="color:${MAIL_COLOURS.bandText};font-size:20px;font-weight:700;text-decoration:none"><img src="${escapeHtml(site.origin + MAIL_LOGO_PATH)}" width="32" height="32" alt="" style="vertical-align:middle;margin-right:10px;border:0">${escapeHtml(site.name)}</a><div style="height:3px;margin-top:10px;background:${MAIL_COLOURS.accent};border-radius:2px"></div></div>`;
  const body = `<div style="padding:24px;border:1px solid ${MAIL_COLOURS.rule};border-top:none;border-radius:0 0 12px 12px">${parts.join("")}<hr style="border:none;border-top:1px solid ${MAIL_COLOURS.rule};margin:24px 0"><p style="margin:0;font-size:13px;line-height:1.5;color:${MAIL_COLOURS.muted}">${escapeHtml(site.name)} · ${escapeHtml(site.origin)}${footer.length ? `<br>${footer.join("<br>")}` : ""}</p></div>`;
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

export function composeMail(
  mail: QueuedMail,
  mailSite: MailSite,
  drafts: MailDrafts,
): MailComposerOptions {
  const site = { ...mailSite, name: drafts.siteName };
  const draft = withChatLink(drafts.writers[mail.kind](mail, mailSite), mail);
  const event = mail.data.event ? snapshotToEvent(mail.data.event) : null;
  const cancelled = draft.calendar === "cancel";
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
  mailSite: MailSite,
  siteName: string,
): MailComposerOptions {
  const site = { ...mailSite, name: siteName };
  const subject = `Tu enlace para iniciar sesión en ${site.name}`;
  const until = `${formatTime(link.expiresAt, site.timeZone)} (${timeZoneLabel(site.timeZone, link.expiresAt)})`;
  const intro = `Pediste entrar a ${site.name} con este correo. Usa este enlace para iniciar sesión:`;
  const expiry = `El enlace sirve una sola vez y caduca en 15 minutos, a las ${until}. Ábrelo en el mismo navegador donde lo pediste; en otro te pediremos confirmar.`;
  const ignore =
    "Si no fuiste tú, ignora este correo: nadie puede entrar sin abrir este enlace, y tu cuenta sigue igual.";
  const why = `Recibes este correo porque alguien escribió esta dirección para iniciar sesión en ${site.name}. Es un correo de servicio: se envía solo cuando se pide y no se puede desactivar.`;
  const text = [
    "Hola:",
    intro,
    link.url,
    expiry,
    ignore,
    `—\n${site.name} · ${site.origin}\n${why}`,
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
