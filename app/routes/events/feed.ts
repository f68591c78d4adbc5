// /eventos.ics: every public event as a calendar that apps subscribe to ('Suscribirse al calendario').
import { icsResponse } from "~/kernel/ics.server";
import { listPublicCalendarEvents } from "~/events/calendar.server";
import type { Route } from "./+types/feed";

export async function loader({ context }: Route.LoaderArgs) {
  const events = await listPublicCalendarEvents(context.db);
  return icsResponse(
    events,
    context.config.publicUrl,
    { "Content-Disposition": 'inline; filename="eventos-ayllu.ics"' },
    "Eventos de Ayllu",
  );
}
