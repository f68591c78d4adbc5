// The roles members are granted (app/kernel/permissions.ts): an event's or a category's, so
// this file stands above events and competitions.
import { sql } from "drizzle-orm";
import { check, foreignKey, index, pgTable, text, unique, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { competitionCategories } from "./competitions.server";
import { events } from "./events.server";
import { users } from "./members.server";

/**
 * A role given to a member (decision 038): its kind (ROLE_KINDS in app/kernel/permissions.ts)
 * and, for kinds scoped to one event, that event. What each kind may do is the capability table
 * there, never a column here.
 */
export const roleGrants = pgTable(
  "role_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    eventId: uuid("event_id").references(() => events.id, { onDelete: "cascade" }),
    /** A judge's category (decision 057), always with its event: the pair references the category. */
    categoryId: uuid("category_id"),
    grantedBy: uuid("granted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    unique("role_grants_user_kind_event_category_key")
      .on(t.userId, t.kind, t.eventId, t.categoryId)
      .nullsNotDistinct(),
    index("role_grants_event_id_idx").on(t.eventId),
    foreignKey({
      name: "role_grants_category_fk",
      columns: [t.categoryId, t.eventId],
      foreignColumns: [competitionCategories.id, competitionCategories.eventId],
    }).onDelete("cascade"),
    check(
      "role_grants_category_check",
      sql`(${t.kind} = 'judge') = (${t.categoryId} is not null and ${t.eventId} is not null)`,
    ),
  ],
);

export type RoleGrant = typeof roleGrants.$inferSelect;
