// iCalendar (RFC 5545) for one event ('Añadir al calendario'), the public feed /eventos.ics and a
// member's private feed: CRLF line ends, lines folded at 75 octets, TEXT values escaped, times in
// UTC, one VEVENT per session that is not cancelled (decision 043), each with a stable UID: the
// session's id (the first session of an event has the event's own id, its UID before sessions).
// A cancelled session is absent from these calendars; the mail that announces it carries it with
// STATUS:CANCELLED, so that a calendar which imported it removes it.
import type { Event, EventSession } from "~/db/schema.server";

export type IcsSession = Pick<EventSession, "id" | "startsAt" | "endsAt" | "place" | "link">;

export type IcsEvent = Pick<
  Event,
  | "id"
  | "nombreEvento"
  | "descripcion"
  | "startsAt"
  | "endsAt"
  | "ubicacionEvento"
  | "ubicacionEspecifica"
  | "tipoEvento"
  | "enlacesVirtuales"
  | "createdAt"
  | "updatedAt"
> & {
  /**
   * Its sessions that are not cancelled, in order; absent (a mail queued before sessions), one
   * session spanning the event with the event's id.
   */
  sessions?: readonly IcsSession[];
};

/** The sessions a calendar shows for an event. */
export function sessionsOf(event: IcsEvent): readonly IcsSession[] {
  if (event.sessions && event.sessions.length > 0) return event.sessions;
  return [
    { id: event.id, startsAt: event.startsAt, endsAt: event.endsAt, place: null, link: null },
  ];
}

function icsDate(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** TEXT values escape backslash, semicolon, comma and line breaks. */
export function icsText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Lines longer than 75 octets are folded: CRLF and a space, never inside a UTF-8 character. */
export function fold(line: string): string {
  const out: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (bytes + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

function vevents(
  event: IcsEvent,
  origin: string,
  hostname: string,
  cancelled: boolean,
  only?: readonly IcsSession[],
): string[] {
  const all = sessionsOf(event);
  return (only ?? all).flatMap((session) => {
    const number = all.findIndex((s) => s.id === session.id) + 1;
    return vevent(
      event,
      session,
      all.length > 1 && number > 0 ? `${number}/${all.length}` : null,
      origin,
      hostname,
      cancelled,
    );
  });
}

function vevent(
  event: IcsEvent,
  session: IcsSession,
  /** "2/4" for a session of several, so a phone tells the classes apart. */
  numbered: string | null,
  origin: string,
  hostname: string,
  cancelled: boolean,
): string[] {
  const url = `${origin}/detalles/${event.id}`;
  const location =
    session.place ?? [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  const links = [
    ...(session.link ? [session.link] : []),
    ...(event.tipoEvento === "Presencial" ? [] : event.enlacesVirtuales),
  ];
  const descripcion = [event.descripcion, ...links, url].join("\n\n");
  const summary = numbered ? `${event.nombreEvento} (sesión ${numbered})` : event.nombreEvento;
  return [
    "BEGIN:VEVENT",
    `UID:${session.id}@${hostname}`,
    `DTSTAMP:${icsDate(event.updatedAt ?? event.createdAt)}`,
    `DTSTART:${icsDate(session.startsAt)}`,
    `DTEND:${icsDate(session.endsAt)}`,
    `SUMMARY:${icsText(summary)}`,
    `DESCRIPTION:${icsText(descripcion)}`,
    `LOCATION:${icsText(location)}`,
    `URL:${url}`,
    ...(cancelled ? ["STATUS:CANCELLED"] : []),
    "END:VEVENT",
  ];
}

/**
 * A calendar file as an HTTP answer: `site` is the public URL (event links and UIDs), `name`
 * (X-WR-CALNAME) what subscribing apps call it, `headers` the route's disposition and caching.
 */
export function icsResponse(
  events: readonly IcsEvent[],
  site: { origin: string; hostname: string },
  headers: Record<string, string>,
  name?: string,
): Response {
  return new Response(icsCalendar(events, site, name), {
    headers: { "Content-Type": "text/calendar; charset=utf-8", ...headers },
  });
}

/**
 * A whole calendar; `name` (X-WR-CALNAME) is what subscribing apps call it. `cancelled` marks its
 * events cancelled (METHOD:CANCEL, STATUS:CANCELLED), as the mail about a deleted event carries.
 */
export function icsCalendar(
  events: readonly IcsEvent[],
  site: { origin: string; hostname: string },
  name?: string,
  cancelled = false,
  /** Only these sessions of the (one) event: the mail about a cancelled session. */
  only?: readonly IcsSession[],
): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Ayllu//Eventos//ES",
    "CALSCALE:GREGORIAN",
    cancelled ? "METHOD:CANCEL" : "METHOD:PUBLISH",
    ...(name ? [`X-WR-CALNAME:${icsText(name)}`] : []),
    ...events.flatMap((event) => vevents(event, site.origin, site.hostname, cancelled, only)),
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
