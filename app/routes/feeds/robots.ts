// /robots.txt — served here (not as a static file) because the Sitemap line needs the site's
// absolute address, which comes from PUBLIC_URL.
import type { Route } from "./+types/robots";

export function loader({ context }: Route.LoaderArgs) {
  const origin = context.config.publicUrl.origin;
  const text = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /profile",
    "Disallow: /aditionaldata",
    "Disallow: /admin",
    "Disallow: /projectsandnotes",
    "Disallow: /auth/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(text, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
