// /eventos.ics: every public event as a calendar that apps subscribe to ('Suscribirse al calendario').
import { icsCalendar } from "#server/models/ics.server";
import { listPublicCalendarEvents } from "#server/models/calendar.server";
import type { Route } from "./+types/feed";

export async function loader({ context }: Route.LoaderArgs) {
  const events = await listPublicCalendarEvents(context.db);
  const body = icsCalendar(
    events,
    { origin: context.config.publicUrl.origin, hostname: context.config.publicUrl.hostname },
    "Eventos de Ayllu",
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="eventos-ayllu.ics"',
    },
  });
}
