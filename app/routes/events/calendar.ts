// 'Añadir al calendario': one event as an iCalendar file (RFC 5545).
import { notFound } from "~/lib/not-found";
import { MESSAGES } from "~/lib/messages";
import { getEvent } from "#server/models/event.server";
import type { Route } from "./+types/calendar";

const DEFAULT_DURATION_MS = 2 * 60 * 60 * 1000;

function icsDate(instant: Date): string {
  return instant
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** TEXT values escape backslash, semicolon, comma and line breaks. */
function icsText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** Lines longer than 75 octets are folded: CRLF and a space, never inside a UTF-8 character. */
function fold(line: string): string {
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

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await getEvent(context.db, params.eventId);
  if (!event) notFound(MESSAGES.eventNotFound);
  const origin = context.config.publicUrl.origin;
  const url = `${origin}/detalles/${event.id}`;
  const location = [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  const links = event.tipoEvento === "Presencial" ? [] : event.enlacesVirtuales;
  const descripcion = [event.descripcion, ...links, url].join("\n\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Ayllu//Eventos//ES",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${event.id}@${context.config.publicUrl.hostname}`,
    `DTSTAMP:${icsDate(event.updatedAt ?? event.createdAt)}`,
    `DTSTART:${icsDate(event.startsAt)}`,
    `DTEND:${icsDate(new Date(event.startsAt.getTime() + DEFAULT_DURATION_MS))}`,
    `SUMMARY:${icsText(event.nombreEvento)}`,
    `DESCRIPTION:${icsText(descripcion)}`,
    `LOCATION:${icsText(location)}`,
    `URL:${url}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  const body = lines.map(fold).join("\r\n") + "\r\n";
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="evento-${event.id}.ics"`,
      "Cache-Control": "public, max-age=300",
    },
  });
}
