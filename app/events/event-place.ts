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
