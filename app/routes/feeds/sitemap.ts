// /sitemap.xml — every public page: the landing pages, the lists and each event, note, resource
// and project. Past SITEMAP_PART_SIZE pages it is an index of parts, /sitemap.xml?parte=N.
import { countPublicPages, listPublicPages, SITEMAP_PART_SIZE } from "~/site/sitemap.server";
import type { Route } from "./+types/sitemap";
import { escapeXml } from "./xml.server";

const HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=300",
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const origin = context.config.publicUrl.origin;
  const part = new URL(request.url).searchParams.get("parte");
  const total = await countPublicPages(context.db);
  const parts = Math.ceil(total / SITEMAP_PART_SIZE);
  if (part === null && parts > 1) {
    const sitemaps = Array.from(
      { length: parts },
      (_, i) =>
        `  <sitemap><loc>${escapeXml(`${origin}/sitemap.xml?parte=${i + 1}`)}</loc></sitemap>`,
    ).join("\n");
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps}\n</sitemapindex>\n`;
    return new Response(xml, { headers: HEADERS });
  }
  const n = part === null ? 1 : /^[1-9]\d{0,5}$/.test(part) ? Number(part) : 0;
  if (n < 1 || n > Math.max(1, parts)) {
    return new Response("Esta parte del mapa del sitio no existe.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const pages = await listPublicPages(context.db, {
    offset: (n - 1) * SITEMAP_PART_SIZE,
    limit: SITEMAP_PART_SIZE,
  });
  const urls = pages
    .map((page) => {
      const lastmod = page.lastModified
        ? `<lastmod>${page.lastModified.toISOString()}</lastmod>`
        : "";
      return `  <url><loc>${escapeXml(origin + page.path)}</loc>${lastmod}</url>`;
    })
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, { headers: HEADERS });
}
