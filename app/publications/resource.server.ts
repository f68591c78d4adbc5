// Resources (recursos): published, edited and deleted by admins (§4).
import { desc, eq } from "drizzle-orm";
import { isUuid } from "~/kernel/checks";
import type { ResourceInput } from "~/publications/schemas";
import type { Db } from "~/db/client.server";
import { publicationsVersion, notifyPublicationChange } from "~/db/notify.server";
import { resources, type Resource, type User } from "~/db/schema.server";
import { publisherNameOf } from "./publisher.server";
import { assertMay } from "~/kernel/permissions";
import { recordAudit } from "~/audit/audit.server";

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
  const role = assertMay(actor, "publications.manage");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(resources)
      .values({ ...input, publisher: actor!.id, publisherName: publisherNameOf(actor!) })
      .returning();
    await notifyPublicationChange(tx, {
      kind: "resource",
      action: "created",
      id: row!.id,
      version: publicationsVersion(row!),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "resource.create",
      itemKind: "resource",
      itemId: row!.id,
      summary: `Publicó el recurso «${row!.titulo}»`,
    });
    return row!;
  });
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
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(resources)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(resources.id, id))
      .returning();
    if (!row) return null;
    await notifyPublicationChange(tx, {
      kind: "resource",
      action: "updated",
      id,
      version: publicationsVersion(row),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "resource.edit",
      itemKind: "resource",
      itemId: id,
      summary: `Editó el recurso «${row.titulo}»`,
    });
    return row;
  });
}

/** Deletes the resource; false when there was none with this id. */
export async function deleteResource(db: Db, actor: User | null, id: string): Promise<boolean> {
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(resources)
      .where(eq(resources.id, id))
      .returning({ id: resources.id });
    if (gone.length === 0) return false;
    await notifyPublicationChange(tx, { kind: "resource", action: "deleted", id });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: "resource.delete",
      itemKind: "resource",
      itemId: id,
      summary: `Eliminó el recurso`,
    });
    return true;
  });
}
