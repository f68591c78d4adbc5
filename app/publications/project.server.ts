// Projects (proyectos): published, edited and deleted by admins (§4).
import { desc, eq, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { ProjectInput } from "~/publications/schemas";
import type { Db } from "~/db/client.server";
import { preparedFor } from "~/db/prepared.server";
import { publicationsVersion, notifyPublicationChange } from "~/db/notify.server";
import { projects, type Project, type User } from "~/db/schema.server";
import { publisherNameOf } from "./publisher.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";

const latestProjects = preparedFor((db) =>
  db
    .select({
      id: projects.id,
      titulo: projects.titulo,
      descripcion: projects.descripcion,
      enlacesImagen: projects.enlacesImagen,
      createdAt: projects.createdAt,
    })
    .from(projects)
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(sql.placeholder("limit"))
    .prepare("ayllu_latest_projects"),
);

/** The newest projects first (home page's Featured section, /proyectos). */
export async function listLatestProjects(db: Db, limit: number) {
  return latestProjects(db).execute({ limit });
}

/** Every project, newest first. */
export async function listProjects(db: Db): Promise<Project[]> {
  return db.select().from(projects).orderBy(desc(projects.createdAt), desc(projects.id));
}

/** The project with this id; null for an unknown or malformed id. */
export async function getProject(db: Db, id: string): Promise<Project | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(projects).where(eq(projects.id, id));
  return row ?? null;
}

export async function createProject(
  db: Db,
  actor: User | null,
  input: ProjectInput,
): Promise<Project> {
  const role = assertMay(actor, "publications.manage");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(projects)
      .values({ ...input, publisher: actor!.id, publisherName: publisherNameOf(actor!) })
      .returning();
    await notifyPublicationChange(tx, {
      kind: "project",
      action: "created",
      id: row!.id,
      version: publicationsVersion(row!),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "project.create",
      itemKind: "project",
      itemId: row!.id,
      summary: `Publicó el proyecto «${row!.titulo}»`,
    });
    return row!;
  });
}

/** A merge-update (§7) that keeps createdAt and the original publisher; null for an unknown id. */
export async function updateProject(
  db: Db,
  actor: User | null,
  id: string,
  input: ProjectInput,
): Promise<Project | null> {
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(projects)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(projects.id, id))
      .returning();
    if (!row) return null;
    await notifyPublicationChange(tx, {
      kind: "project",
      action: "updated",
      id,
      version: publicationsVersion(row),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "project.edit",
      itemKind: "project",
      itemId: id,
      summary: `Editó el proyecto «${row.titulo}»`,
    });
    return row;
  });
}

/** Deletes the project; false when there was none with this id. */
export async function deleteProject(db: Db, actor: User | null, id: string): Promise<boolean> {
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(projects)
      .where(eq(projects.id, id))
      .returning({ id: projects.id });
    if (gone.length === 0) return false;
    await notifyPublicationChange(tx, { kind: "project", action: "deleted", id });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "project.delete",
      itemKind: "project",
      itemId: id,
      summary: `Eliminó el proyecto`,
    });
    return true;
  });
}
