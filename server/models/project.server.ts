// Projects (proyectos): published, edited and deleted by admins.
import { desc } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { projects } from "../db/schema.server";

/** The newest projects first (home page's Featured section, /proyectos). */
export async function listLatestProjects(db: Db, limit: number) {
  return db
    .select({
      id: projects.id,
      titulo: projects.titulo,
      descripcion: projects.descripcion,
      enlacesImagen: projects.enlacesImagen,
      createdAt: projects.createdAt,
    })
    .from(projects)
    .orderBy(desc(projects.createdAt), desc(projects.id))
    .limit(limit);
}
