import { socialLabel } from "~/site/sections";

/** Where an event happens, as the event page, the certificate and its public page all say it. */
export function eventPlace(event: {
  ubicacionEvento: string;
  ubicacionEspecifica: string | null;
}): string {
  return event.ubicacionEspecifica
    ? `${event.ubicacionEvento} — ${event.ubicacionEspecifica}`
    : event.ubicacionEvento;
}

/**
 * An OpenStreetMap search for an event's place (no map script on the page): for an event with a
 * door, null for one that happens only online.
 */
export function mapSearchUrl(event: {
  tipoEvento: string;
  ubicacionEvento: string;
  ubicacionEspecifica: string | null;
}): string | null {
  if (event.tipoEvento === "Virtual") return null;
  const query = [event.ubicacionEspecifica, event.ubicacionEvento].filter(Boolean).join(", ");
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

/**
 * How an event's online link reads: the platform's name where it is a known one, then the address
 * without its scheme ("YouTube · youtube.com/live/robots", "meet.jit.si/ayllu"), not a raw URL.
 */
export function eventLinkLabel(url: string): string {
  const bare = url.replace(/^https?:\/\/(www\.)?/i, "").replace(/\/$/, "");
  const platform = socialLabel(url);
  let host = "";
  try {
    host = new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
  return platform === host ? bare : `${platform} · ${bare}`;
}
