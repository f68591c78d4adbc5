// Notes (notas): community news. Created and deleted by admins only (§4).
import { desc, eq, sql } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { NoteInput } from "~/publications/schemas";
import type { Db } from "~/db/client.server";
import { publish, unpublish } from "./change.server";
import { preparedFor } from "~/db/prepared.server";
import { notes, type Note, type User } from "~/db/schema.server";

const latestNotes = preparedFor((db) =>
  db
    .select({
      id: notes.id,
      titulo: notes.titulo,
      texto: notes.texto,
      enlaceImagen: notes.enlaceImagen,
      createdAt: notes.createdAt,
    })
    .from(notes)
    .orderBy(desc(notes.createdAt), desc(notes.id))
    .limit(sql.placeholder("limit"))
    .prepare("ayllu_latest_notes"),
);

/** The newest notes first (home page's Community News, /notas). */
export async function listLatestNotes(db: Db, limit: number) {
  return latestNotes(db).execute({ limit });
}

/** Every note, newest first. */
export async function listNotes(db: Db): Promise<Note[]> {
  return db.select().from(notes).orderBy(desc(notes.createdAt), desc(notes.id));
}

/** The note with this id; null for an unknown or malformed id. */
export async function getNote(db: Db, id: string): Promise<Note | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(notes).where(eq(notes.id, id));
  return row ?? null;
}

export async function createNote(db: Db, actor: User | null, input: NoteInput): Promise<Note> {
  return publish(db, actor, "note", (tx, by) =>
    tx
      .insert(notes)
      .values({ ...input, ...by })
      .returning(),
  );
}

/** Deletes the note; false when there was none with this id. */
export async function deleteNote(db: Db, actor: User | null, id: string): Promise<boolean> {
  return unpublish(db, actor, "note", id, (tx) =>
    tx.delete(notes).where(eq(notes.id, id)).returning({ id: notes.id }),
  );
}
