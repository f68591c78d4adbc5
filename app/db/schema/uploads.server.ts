// Uploads: the attempts counted against each member's limit (app/uploads).
import { index, pgTable, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { users } from "./members.server";

/**
 * A member's upload in the last minute, for the per-minute limit (UPLOADS_PER_MINUTE,
 * docs/decisions/028-image-decoding-bound.md): counted here so that it holds across processes and
 * machines. Rows older than a minute are deleted at the next upload, so the table holds about a
 * minute of uploads.
 */
export const uploadAttempts = pgTable(
  "upload_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("upload_attempts_user_id_created_at_idx").on(t.userId, t.createdAt)],
);
