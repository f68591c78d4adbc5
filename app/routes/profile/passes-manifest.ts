// The web app manifest of 'Mis entradas' (docs/decisions/050-mis-entradas-offline.md): where the
// phone offers 'Añadir a la pantalla de inicio', the page opens from there in its own window,
// with the community's name and logo, and without a connection thanks to its service worker.
import { token } from "~/kernel/brand.server";
import { site } from "~/site/copy/site";

export function loader() {
  const background = token("color-bg")[0];
  const manifest = {
    id: "/mis-entradas",
    name: `Mis entradas — ${site.name}`,
    short_name: site.name,
    description: "Tus entradas, sesiones y certificados, también sin conexión.",
    lang: "es",
    dir: "ltr",
    start_url: "/mis-entradas",
    scope: "/mis-entradas",
    display: "standalone",
    orientation: "portrait",
    background_color: background,
    theme_color: background,
    icons: [
      { src: "/icons/logo-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/logo-512.png", sizes: "512x512", type: "image/png" },
      { src: "/logo.svg", sizes: "any", type: "image/svg+xml" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
