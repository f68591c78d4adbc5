// Every public page, for sitemap.xml, a part at a time: a sitemap may list at most 50,000
// addresses, so past SITEMAP_PART_SIZE pages /sitemap.xml becomes an index of parts.
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { rowsOf } from "~/db/rows.server";
import { events, notes, projects, resources } from "~/db/schema.server";

interface SitemapEntry {
  path: string;
  lastModified: Date | null;
}

/**
 * Pages per sitemap part. Well under the protocol's 50,000, so that a part (about 1 MB) stays small
 * enough for the page cache to keep.
 */
export const SITEMAP_PART_SIZE = 10_000;

const STATIC_PAGES = [
  "/",
  "/inicio",
  "/events",
  "/clase1",
  "/eventos",
  "/notas",
  "/recursos",
  "/proyectos",
];

export async function countPublicPages(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select ((select count(*) from ${events}) + (select count(*) from ${notes})
      + (select count(*) from ${resources}) + (select count(*) from ${projects}))::int as n`),
  );
  return STATIC_PAGES.length + Number(row?.n ?? 0);
}

/**
 * Public pages `offset` to `offset + limit`: the fixed pages, then events (by date, newest
 * first), notes, resources and projects (newest first).
 */
export async function listPublicPages(
  db: Db,
  { offset, limit }: { offset: number; limit: number } = { offset: 0, limit: SITEMAP_PART_SIZE },
): Promise<SitemapEntry[]> {
  const fixed = STATIC_PAGES.slice(offset, offset + limit).map((path) => ({
    path,
    lastModified: null,
  }));
  const rest = limit - fixed.length;
  if (rest <= 0) return fixed;
  const rows = rowsOf<{ path: string; modified: string | Date }>(
    await db.execute(sql`
      select path, modified from (
        select '/detalles/' || id as path, coalesce(updated_at, created_at) as modified,
               1 as kind, starts_at as at, id from ${events}
        union all
        select '/notas/' || id, created_at, 2, created_at, id from ${notes}
        union all
        select '/recursos/' || id, coalesce(updated_at, created_at), 3, created_at, id from ${resources}
        union all
        select '/proyectos/' || id, coalesce(updated_at, created_at), 4, created_at, id from ${projects}
      ) pages
      order by kind, at desc, id
      limit ${rest} offset ${Math.max(0, offset - STATIC_PAGES.length)}`),
  );
  return [...fixed, ...rows.map((r) => ({ path: r.path, lastModified: new Date(r.modified) }))];
}
