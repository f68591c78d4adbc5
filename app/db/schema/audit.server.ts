// The audit log (app/audit, decision 039).
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./members.server";

/**
 * The audit log (decision 039): one row per action of an admin, organiser, editor or door staff,
 * written in the transaction of the change. `actorId` is null for the system (an import without
 * --como, a restore) and once the person's account is deleted; `actorName` then says which.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** The role the action was allowed under: admin, organiser, editor, door, system. */
    role: text("role").notNull(),
    action: text("action").notNull(),
    itemKind: text("item_kind").notNull(),
    itemId: text("item_id"),
    summary: text("summary").notNull(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_actor_id_idx").on(t.actorId),
    index("audit_log_item_idx").on(t.itemKind, t.itemId),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
