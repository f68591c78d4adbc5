// 'Añadir al calendario': one event as an iCalendar file (RFC 5545).
import { MESSAGES } from "~/lib/messages";
import { notFound } from "~/lib/not-found";
import { getEvent } from "#server/models/event.server";
import { icsCalendar } from "#server/models/ics.server";
import type { Route } from "./+types/calendar";

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await getEvent(context.db, params.eventId);
  if (!event) notFound(MESSAGES.eventNotFound);
  const body = icsCalendar([event], {
    origin: context.config.publicUrl.origin,
    hostname: context.config.publicUrl.hostname,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="evento-${event.id}.ics"`,
      "Cache-Control": "public, max-age=300",
    },
  });
}
