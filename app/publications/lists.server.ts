// The publications admin's lists (§7): only what the lists show, and each row's version, so that a
// page can tell a change it already shows from one it has not seen (decision 016).
import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { publicationsVersion } from "~/db/notify.server";
import { notes, projects, resources, type User } from "~/db/schema.server";
import { assertMay } from "~/kernel/permissions";

export interface PublicationListItem {
  id: string;
  titulo: string;
  publisherName: string;
  createdAt: string;
  version: string;
}

interface PublicationLists {
  notes: PublicationListItem[];
  resources: PublicationListItem[];
  projects: PublicationListItem[];
}

export async function listPublicationsForAdmin(
  db: Db,
  actor: User | null,
): Promise<PublicationLists> {
  assertMay(actor, "publications.manage");
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
  ): PublicationListItem[] =>
    rows.map((row) => ({
      id: row.id,
      titulo: row.titulo,
      publisherName: row.publisherName,
      createdAt: row.createdAt.toISOString(),
      version: publicationsVersion(row),
    }));
  return { notes: items(noteRows), resources: items(resourceRows), projects: items(projectRows) };
}
