// The audit log (docs/decisions/039-audit-log.md): who did what to which item, under which role,
// written by the model functions in the transaction of the change, so that a change and its entry
// land together or not at all.
import type { Db } from "~/db/client.server";
import { auditLog, type User } from "~/db/schema.server";
import type { RoleKind } from "~/members/permissions.server";

/** Who is written as the author: a member, or the system (an import without --como, a restore). */
export type AuditActor =
  | (Pick<User, "id"> & Partial<Pick<User, "displayName" | "nombreCompleto" | "email">>)
  | { system: string };

export interface AuditInput {
  actor: AuditActor;
  role: "admin" | RoleKind | "system";
  action: string;
  itemKind: string;
  itemId?: string | null;
  summary: string;
  at?: Date;
}

/** The name an entry keeps for its author (shown even if the member later changes theirs). */
export function auditName(actor: AuditActor): string {
  if ("system" in actor) return actor.system;
  return (
    actor.nombreCompleto?.trim() || actor.displayName?.trim() || actor.email?.trim() || actor.id
  );
}

const SUMMARY_MAX = 500;

/** Writes one entry; pass the transaction of the change. */
export async function recordAudit(db: Db, entry: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: "system" in entry.actor ? null : entry.actor.id,
    actorName: auditName(entry.actor),
    role: entry.role,
    action: entry.action,
    itemKind: entry.itemKind,
    itemId: entry.itemId ?? null,
    summary: [...entry.summary].slice(0, SUMMARY_MAX).join(""),
    ...(entry.at ? { at: entry.at } : {}),
  });
}
