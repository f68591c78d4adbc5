// /sitemap.xml — every public page: the landing pages, the lists and each event, note, resource and project.
import { listPublicPages } from "#server/models/sitemap.server";
import type { Route } from "./+types/sitemap";
import { escapeXml } from "./xml.server";

export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.config.publicUrl.origin;
  const pages = await listPublicPages(context.db);
  const urls = pages
    .map((page) => {
      const lastmod = page.lastModified
        ? `<lastmod>${page.lastModified.toISOString()}</lastmod>`
        : "";
      return `  <url><loc>${escapeXml(origin + page.path)}</loc>${lastmod}</url>`;
    })
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
