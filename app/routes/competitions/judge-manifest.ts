// The web app manifest of a category's judge's screen (decision 059): added to a judge's phone,
// it opens straight on that screen, in its own window, also without a connection.
import { categoryById } from "~/competitions/categories.server";
import { token } from "~/kernel/brand.server";
import { notFound } from "~/kernel/not-found";
import { JUDGING_MESSAGES } from "~/competitions/judging/messages";
import type { Route } from "./+types/judge-manifest";

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await categoryById(context.db, params.categoryId);
  const category = found?.eventId === params.eventId ? found : null;
  if (!category) notFound(JUDGING_MESSAGES.categoryNotFound);
  const page = `/admin/eventos/${params.eventId}/jurado/${params.categoryId}`;
  const background = token("color-bg")[0];
  const manifest = {
    id: page,
    name: `Jurado: ${category.name} — Ayllu`,
    short_name: "Jurado Ayllu",
    description: "Anotar resultados de la competencia, también sin conexión.",
    lang: "es",
    dir: "ltr",
    start_url: page,
    scope: page,
    display: "standalone",
    orientation: "portrait",
    background_color: background,
    theme_color: background,
    icons: [
      { src: "/icons/logo-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/logo-512.png", sizes: "512x512", type: "image/png" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8" },
  });
}
