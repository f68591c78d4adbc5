// /notas/rss.xml — the notes as an RSS 2.0 feed, newest first.
import { listLatestNotes } from "~/publications/note.server";
import type { Route } from "./+types/rss";
import { escapeXml } from "./xml.server";

const FEED_SIZE = 50;

export async function loader({ context }: Route.LoaderArgs) {
  const origin = context.config.publicUrl.origin;
  const notes = await listLatestNotes(context.db, FEED_SIZE);
  const items = notes
    .map((note) => {
      const link = `${origin}/notas/${note.id}`;
      return [
        "    <item>",
        `      <title>${escapeXml(note.titulo)}</title>`,
        `      <link>${escapeXml(link)}</link>`,
        `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
        `      <pubDate>${note.createdAt.toUTCString()}</pubDate>`,
        `      <description>${escapeXml(note.texto)}</description>`,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    "    <title>Ayllu — Notas de la comunidad</title>",
    `    <link>${escapeXml(`${origin}/notas`)}</link>`,
    `    <atom:link href="${escapeXml(`${origin}/notas/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    "    <description>Noticias de la comunidad Ayllu: robótica y tecnología de código abierto en Bolivia.</description>",
    "    <language>es</language>",
    notes[0] ? `    <lastBuildDate>${notes[0].createdAt.toUTCString()}</lastBuildDate>` : null,
    items || null,
    "  </channel>",
    "</rss>",
    "",
  ]
    .filter((line) => line !== null)
    .join("\n");
  return new Response(xml, {
    headers: {
      "Content-Type": "application/rss+xml; charset=utf-8",
      "Cache-Control": "public, max-age=300",
    },
  });
}
