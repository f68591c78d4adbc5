// Every public page, for sitemap.xml.
import { desc } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { events, notes, projects, resources } from "../db/schema.server";

export interface SitemapEntry {
  path: string;
  lastModified: Date | null;
}

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

export async function listPublicPages(db: Db): Promise<SitemapEntry[]> {
  const [eventRows, noteRows, resourceRows, projectRows] = await Promise.all([
    db
      .select({ id: events.id, createdAt: events.createdAt, updatedAt: events.updatedAt })
      .from(events)
      .orderBy(desc(events.startsAt)),
    db
      .select({ id: notes.id, createdAt: notes.createdAt })
      .from(notes)
      .orderBy(desc(notes.createdAt)),
    db
      .select({ id: resources.id, createdAt: resources.createdAt, updatedAt: resources.updatedAt })
      .from(resources)
      .orderBy(desc(resources.createdAt)),
    db
      .select({ id: projects.id, createdAt: projects.createdAt, updatedAt: projects.updatedAt })
      .from(projects)
      .orderBy(desc(projects.createdAt)),
  ]);
  return [
    ...STATIC_PAGES.map((path) => ({ path, lastModified: null })),
    ...eventRows.map((e) => ({
      path: `/detalles/${e.id}`,
      lastModified: e.updatedAt ?? e.createdAt,
    })),
    ...noteRows.map((n) => ({ path: `/notas/${n.id}`, lastModified: n.createdAt })),
    ...resourceRows.map((r) => ({
      path: `/recursos/${r.id}`,
      lastModified: r.updatedAt ?? r.createdAt,
    })),
    ...projectRows.map((p) => ({
      path: `/proyectos/${p.id}`,
      lastModified: p.updatedAt ?? p.createdAt,
    })),
  ];
}
