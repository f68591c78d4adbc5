// The web app manifest of an event's check-in page: installed on an admin's phone, it opens
// straight on that event's check-in, in its own window. It names the event, as its public page does.
import { MESSAGES } from "~/messages";
import { notFound } from "~/kernel/not-found";
import { getEvent } from "~/events/event.server";
import type { Route } from "./+types/check-in-manifest";

export async function loader({ params, context }: Route.LoaderArgs) {
  const event = await getEvent(context.db, params.eventId);
  if (!event) notFound(MESSAGES.eventNotFound);
  const base = `/admin/eventos/${event.id}/`;
  const manifest = {
    id: `${base}registro`,
    name: `Registro: ${event.nombreEvento} — Ayllu`,
    short_name: "Registro Ayllu",
    description: "Registro de asistencia en la puerta del evento, también sin conexión.",
    lang: "es",
    dir: "ltr",
    start_url: `${base}registro`,
    scope: base,
    display: "standalone",
    orientation: "portrait",
    background_color: "#0b1020",
    theme_color: "#0b1020",
    icons: [
      { src: "/icons/logo-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/logo-512.png", sizes: "512x512", type: "image/png" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8" },
  });
}
