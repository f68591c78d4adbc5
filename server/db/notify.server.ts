// Content changes travel through the database's own NOTIFY, so that every server process on one
// PostgreSQL (or the one process on the embedded database) hears every change, after its commit.
import { sql } from "drizzle-orm";
import type { Db } from "./client.server";

export const CONTENT_CHANNEL = "ayllu_content";

export type ContentKind = "note" | "resource" | "project";
export interface ContentChange {
  kind: ContentKind;
  action: "created" | "updated" | "deleted";
  id: string;
}

/** Queues a notification; inside a transaction it is delivered only if the transaction commits. */
export async function notifyContentChange(db: Db, change: ContentChange): Promise<void> {
  await db.execute(sql`select pg_notify(${CONTENT_CHANNEL}, ${JSON.stringify(change)})`);
}

export function parseContentChange(payload: string): ContentChange | null {
  try {
    const value = JSON.parse(payload) as Partial<ContentChange>;
    if (
      (value.kind === "note" || value.kind === "resource" || value.kind === "project") &&
      (value.action === "created" || value.action === "updated" || value.action === "deleted") &&
      typeof value.id === "string"
    ) {
      return { kind: value.kind, action: value.action, id: value.id };
    }
  } catch {
    // not ours
  }
  return null;
}
