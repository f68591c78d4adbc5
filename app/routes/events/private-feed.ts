// /calendario/:token/eventos.ics: a member's own events, for their calendar app, by the secret
// link shown on /profile. Any other token, or an old one, is a 404. Never kept by a cache.
import { notFound } from "~/kernel/not-found";
import { icsResponse } from "~/kernel/ics.server";
import { privateCalendarEvents } from "~/events/calendar.server";
import type { Route } from "./+types/private-feed";

export async function loader({ params, context }: Route.LoaderArgs) {
  const events = await privateCalendarEvents(context.db, params.token);
  if (!events) notFound("Calendario no encontrado.");
  return icsResponse(
    events,
    context.config.publicUrl,
    {
      "Content-Disposition": 'inline; filename="mis-eventos-ayllu.ics"',
      "Cache-Control": "private, no-store",
      "Referrer-Policy": "no-referrer",
    },
    "Mis eventos en Ayllu",
  );
}
