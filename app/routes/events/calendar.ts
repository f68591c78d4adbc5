// 'Añadir al calendario': one event as an iCalendar file (RFC 5545).
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { getEvent } from "~/events/event.server";
import { icsResponse } from "~/kernel/ics.server";
import type { Route } from "./+types/calendar";

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await getEvent(context.db, params.eventId);
  if (!event) notFound(MESSAGES.eventNotFound);
  // One VEVENT per session that is not cancelled (decision 043).
  const sessions = event.sessions.filter((s) => s.cancelledAt === null);
  return icsResponse([{ ...event, sessions }], context.config.publicUrl, {
    "Content-Disposition": `attachment; filename="evento-${event.id}.ics"`,
    "Cache-Control": "public, max-age=300",
  });
}
