// /calendario/:token/eventos.ics: a member's own events, for their calendar app, by the secret
// link shown on /profile. Any other token, or an old one, is a 404. Never kept by a cache.
import { notFound } from "~/lib/not-found";
import { icsCalendar } from "#server/models/ics.server";
import { privateCalendarEvents } from "#server/models/calendar.server";
import type { Route } from "./+types/private-feed";

export async function loader({ params, context }: Route.LoaderArgs) {
  const events = await privateCalendarEvents(context.db, params.token);
  if (!events) notFound("Calendario no encontrado.");
  const body = icsCalendar(
    events,
    { origin: context.config.publicUrl.origin, hostname: context.config.publicUrl.hostname },
    "Mis eventos en Ayllu",
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="mis-eventos-ayllu.ics"',
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
  });
}
