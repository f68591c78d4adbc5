// The site's sections admins edit at /admin/sitio (app/site).
import { jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./members.server";

/**
 * The landing pages' words, photos and links (/admin/sitio, docs/decisions/023-site-content.md):
 * one row per section, its content checked by the section's schema before it is written. Written
 * with the defaults of app/site/copy/section-defaults.ts when the server starts and the row is missing;
 * `edited_at` stays null until an admin saves the section.
 */
export const siteSections = pgTable("site_content", {
  section: text("section").primaryKey(),
  content: jsonb("content").notNull(),
  editedAt: timestamp("edited_at", { withTimezone: true }),
  editedBy: uuid("edited_by").references(() => users.id, { onDelete: "set null" }),
});
