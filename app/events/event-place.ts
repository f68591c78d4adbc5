/** Where an event happens, as the event page, the certificate and its public page all say it. */
export function eventPlace(event: {
  ubicacionEvento: string;
  ubicacionEspecifica: string | null;
}): string {
  return event.ubicacionEspecifica
    ? `${event.ubicacionEvento} — ${event.ubicacionEspecifica}`
    : event.ubicacionEvento;
}
