// Notes (notas): community news. Created and deleted by admins only.
import { desc } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { notes } from "../db/schema.server";

/** The newest notes first (home page's Community News, /notas). */
export async function listLatestNotes(db: Db, limit: number) {
  return db
    .select({ id: notes.id, titulo: notes.titulo, texto: notes.texto, enlaceImagen: notes.enlaceImagen, createdAt: notes.createdAt })
    .from(notes)
    .orderBy(desc(notes.createdAt), desc(notes.id))
    .limit(limit);
}
