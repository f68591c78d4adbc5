// The content admin's lists (§7): only what the lists show, and each row's version, so that a
// page can tell a change it already shows from one it has not seen (decision 016).
import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contentVersion } from "~/db/notify.server";
import { notes, projects, resources, type User } from "~/db/schema.server";
import { assertAdmin } from "~/members/permissions.server";

export interface ContentListItem {
  id: string;
  titulo: string;
  publisherName: string;
  createdAt: string;
  version: string;
}

interface ContentLists {
  notes: ContentListItem[];
  resources: ContentListItem[];
  projects: ContentListItem[];
}

export async function listContentForAdmin(db: Db, actor: User | null): Promise<ContentLists> {
  assertAdmin(actor);
  const [noteRows, resourceRows, projectRows] = await Promise.all([
    db
      .select({
        id: notes.id,
        titulo: notes.titulo,
        publisherName: notes.publisherName,
        createdAt: notes.createdAt,
      })
      .from(notes)
      .orderBy(desc(notes.createdAt), desc(notes.id)),
    db
      .select({
        id: resources.id,
        titulo: resources.titulo,
        publisherName: resources.publisherName,
        createdAt: resources.createdAt,
        updatedAt: resources.updatedAt,
      })
      .from(resources)
      .orderBy(desc(resources.createdAt), desc(resources.id)),
    db
      .select({
        id: projects.id,
        titulo: projects.titulo,
        publisherName: projects.publisherName,
        createdAt: projects.createdAt,
        updatedAt: projects.updatedAt,
      })
      .from(projects)
      .orderBy(desc(projects.createdAt), desc(projects.id)),
  ]);
  const items = (
    rows: {
      id: string;
      titulo: string;
      publisherName: string;
      createdAt: Date;
      updatedAt?: Date | null;
    }[],
  ): ContentListItem[] =>
    rows.map((row) => ({
      id: row.id,
      titulo: row.titulo,
      publisherName: row.publisherName,
      createdAt: row.createdAt.toISOString(),
      version: contentVersion(row),
    }));
  return { notes: items(noteRows), resources: items(resourceRows), projects: items(projectRows) };
}
