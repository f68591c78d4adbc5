// Projects (proyectos): published, edited and deleted by admins (§4).
import { desc, eq, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { ProjectInput } from "~/publications/schemas";
import type { Db } from "~/db/client.server";
import { edit, publish, unpublish } from "./change.server";
import { preparedFor } from "~/db/prepared.server";
import { projects, type Project, type User } from "~/db/schema.server";

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
  return publish(db, actor, "project", (tx, by) =>
    tx
      .insert(projects)
      .values({ ...input, ...by })
      .returning(),
  );
}

/** A merge-update (§7) that keeps createdAt and the original publisher; null for an unknown id. */
export async function updateProject(
  db: Db,
  actor: User | null,
  id: string,
  input: ProjectInput,
): Promise<Project | null> {
  return edit(db, actor, "project", id, (tx) =>
    tx
      .update(projects)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(projects.id, id))
      .returning(),
  );
}

/** Deletes the project; false when there was none with this id. */
export async function deleteProject(db: Db, actor: User | null, id: string): Promise<boolean> {
  return unpublish(db, actor, "project", id, (tx) =>
    tx.delete(projects).where(eq(projects.id, id)).returning({ id: projects.id }),
  );
}
