// Resources (recursos): published, edited and deleted by admins (§4).
import { desc, eq } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { ResourceInput } from "~/publications/schemas";
import type { Db } from "~/db/client.server";
import { edit, publish, unpublish } from "./change.server";
import { resources, type Resource, type User } from "~/db/schema.server";

/** Every resource, newest first. */
export async function listResources(db: Db): Promise<Resource[]> {
  return db.select().from(resources).orderBy(desc(resources.createdAt), desc(resources.id));
}

/** The resource with this id; null for an unknown or malformed id. */
export async function getResource(db: Db, id: string): Promise<Resource | null> {
  if (!isUuid(id)) return null;
  const [row] = await db.select().from(resources).where(eq(resources.id, id));
  return row ?? null;
}

export async function createResource(
  db: Db,
  actor: User | null,
  input: ResourceInput,
): Promise<Resource> {
  return publish(db, actor, "resource", (tx, by) =>
    tx
      .insert(resources)
      .values({ ...input, ...by })
      .returning(),
  );
}

/**
 * A merge-update (§7): the form's fields change; createdAt and the original publisher stay.
 * Null when there is no resource with this id.
 */
export async function updateResource(
  db: Db,
  actor: User | null,
  id: string,
  input: ResourceInput,
): Promise<Resource | null> {
  return edit(db, actor, "resource", id, (tx) =>
    tx
      .update(resources)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(resources.id, id))
      .returning(),
  );
}

/** Deletes the resource; false when there was none with this id. */
export async function deleteResource(db: Db, actor: User | null, id: string): Promise<boolean> {
  return unpublish(db, actor, "resource", id, (tx) =>
    tx.delete(resources).where(eq(resources.id, id)).returning({ id: resources.id }),
  );
}
