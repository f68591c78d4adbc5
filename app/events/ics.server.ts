// iCalendar (RFC 5545) for one event ('Añadir al calendario'), the public feed /eventos.ics and a
// member's private feed: CRLF line ends, lines folded at 75 octets, TEXT values escaped, times in
// UTC, one stable UID per event.
import type { Event } from "~/db/schema.server";

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
>;

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

function vevent(event: IcsEvent, origin: string, hostname: string, cancelled: boolean): string[] {
  const url = `${origin}/detalles/${event.id}`;
  const location = [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  const links = event.tipoEvento === "Presencial" ? [] : event.enlacesVirtuales;
  const descripcion = [event.descripcion, ...links, url].join("\n\n");
  return [
    "BEGIN:VEVENT",
    `UID:${event.id}@${hostname}`,
    `DTSTAMP:${icsDate(event.updatedAt ?? event.createdAt)}`,
    `DTSTART:${icsDate(event.startsAt)}`,
    `DTEND:${icsDate(event.endsAt)}`,
    `SUMMARY:${icsText(event.nombreEvento)}`,
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
): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Ayllu//Eventos//ES",
    "CALSCALE:GREGORIAN",
    cancelled ? "METHOD:CANCEL" : "METHOD:PUBLISH",
    ...(name ? [`X-WR-CALNAME:${icsText(name)}`] : []),
    ...events.flatMap((event) => vevent(event, site.origin, site.hostname, cancelled)),
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
