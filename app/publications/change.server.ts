// A change of a note, resource or project (§4), the same for the three: asked of the capability
// table, written in one transaction with its notice to the other nodes (notify.server.ts) and its
// line in the audit log.
import { recordAudit } from "~/audit/audit.server";
import type { Db, Tx } from "~/db/client.server";
import {
  notifyPublicationChange,
  publicationsVersion,
  type PublicationKind,
} from "~/db/notify.server";
import type { User } from "~/db/schema.server";
import { isUuid } from "~/kernel/checks";
import { assertMay } from "~/kernel/permissions";
import { publisherNameOf } from "./publisher.server";

/** How the audit log names each kind. */
const NAMED: Record<PublicationKind, string> = {
  note: "la nota",
  resource: "el recurso",
  project: "el proyecto",
};

interface Published {
  id: string;
  titulo: string;
  createdAt: Date;
  updatedAt?: Date | null;
}

/** Publishes a new one: `insert` writes its row with who published it, and returns it. */
export async function publish<Row extends Published>(
  db: Db,
  actor: User | null,
  kind: PublicationKind,
  insert: (tx: Tx, by: { publisher: string; publisherName: string }) => Promise<Row[]>,
): Promise<Row> {
  const role = assertMay(actor, "publications.manage");
  return db.transaction(async (tx) => {
    const [row] = await insert(tx, {
      publisher: actor!.id,
      publisherName: publisherNameOf(actor!),
    });
    await notifyPublicationChange(tx, {
      kind,
      action: "created",
      id: row!.id,
      version: publicationsVersion(row!),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: `${kind}.create`,
      itemKind: kind,
      itemId: row!.id,
      summary: `Publicó ${NAMED[kind]} «${row!.titulo}»`,
    });
    return row!;
  });
}

/** Edits one: `update` writes the row with this id and returns it; null when there is none. */
export async function edit<Row extends Published>(
  db: Db,
  actor: User | null,
  kind: PublicationKind,
  id: string,
  update: (tx: Tx) => Promise<Row[]>,
): Promise<Row | null> {
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return null;
  return db.transaction(async (tx) => {
    const [row] = await update(tx);
    if (!row) return null;
    await notifyPublicationChange(tx, {
      kind,
      action: "updated",
      id,
      version: publicationsVersion(row),
    });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: `${kind}.edit`,
      itemKind: kind,
      itemId: id,
      summary: `Editó ${NAMED[kind]} «${row.titulo}»`,
    });
    return row;
  });
}

/** Deletes one: `remove` deletes the row with this id and returns what it deleted; false for none. */
export async function unpublish(
  db: Db,
  actor: User | null,
  kind: PublicationKind,
  id: string,
  remove: (tx: Tx) => Promise<unknown[]>,
): Promise<boolean> {
  const role = assertMay(actor, "publications.manage");
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const gone = await remove(tx);
    if (gone.length === 0) return false;
    await notifyPublicationChange(tx, { kind, action: "deleted", id });
    await recordAudit(tx, {
      actor: actor!,
      role,
      action: `${kind}.delete`,
      itemKind: kind,
      itemId: id,
      summary: `Eliminó ${NAMED[kind]}`,
    });
    return true;
  });
}
