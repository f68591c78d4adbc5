// Publication changes travel through the database's own NOTIFY, so that every server process on one
// PostgreSQL (or the one process on the embedded database) hears every change, after its commit.
import { sql } from "drizzle-orm";
import type { Db } from "./client.server";

export const PUBLICATIONS_CHANNEL = "ayllu_publications";

/**
 * Sent by the database triggers of drizzle/0002_page_notify.sql on every write a public page
 * shows, with the table's name: the page cache and the landing sections listen to it.
 */
export const PAGES_CHANNEL = "ayllu_pages";

export type PublicationKind = "note" | "resource" | "project";
interface PublicationChange {
  kind: PublicationKind;
  action: "created" | "updated" | "deleted";
  id: string;
  /** The row's version after a create or update (publicationsVersion): a page that shows it skips it. */
  version?: string;
}

/** A row's version: it changes with every save (decision 016). */
export function publicationsVersion(row: { createdAt: Date; updatedAt?: Date | null }): string {
  return String((row.updatedAt ?? row.createdAt).getTime());
}

/** Queues a notification; inside a transaction it is delivered only if the transaction commits. */
export async function notifyPublicationChange(db: Db, change: PublicationChange): Promise<void> {
  await db.execute(sql`select pg_notify(${PUBLICATIONS_CHANNEL}, ${JSON.stringify(change)})`);
}

export function parsePublicationChange(payload: string): PublicationChange | null {
  try {
    const value = JSON.parse(payload) as Partial<PublicationChange>;
    if (
      (value.kind === "note" || value.kind === "resource" || value.kind === "project") &&
      (value.action === "created" || value.action === "updated" || value.action === "deleted") &&
      typeof value.id === "string"
    ) {
      return {
        kind: value.kind,
        action: value.action,
        id: value.id,
        ...(typeof value.version === "string" ? { version: value.version } : {}),
      };
    }
  } catch {
    // not ours
  }
  return null;
}
