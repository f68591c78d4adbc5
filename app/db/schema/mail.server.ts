// Mail: the outbox (app/mail, decision 021).
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { users } from "./members.server";

/**
 * Mail waiting to be sent, being sent, sent or given up (docs/decisions/021-mail.md). A row is
 * written in the transaction of the change that causes it; the worker claims rows with
 * FOR UPDATE SKIP LOCKED. `data` holds what the message needs, taken at that moment (the event
 * as it was, the admin's text), so a deleted event can still be told about.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The event the mail is about, if any; not a foreign key, so a deleted event's mail stays. */
    eventId: uuid("event_id"),
    data: jsonb("data").notNull().default({}),
    /** Reminders: one per member, event and start time, however many processes schedule them. */
    dedupeKey: text("dedupe_key").unique(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Not before: when a pending mail may be tried, or when a claim on a sending one lapses. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** The claim under which it is being sent: only that claim may mark it sent. */
    claimId: uuid("claim_id"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index("mail_outbox_user_id_idx").on(t.userId),
    index("mail_outbox_created_at_idx").on(t.createdAt),
    check("mail_outbox_status_check", sql`${t.status} in ('pending', 'sending', 'sent', 'failed')`),
    check(
      "mail_outbox_kind_check",
      sql`${t.kind} in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'sessionCancelled', 'welcome', 'message', 'paymentPending', 'receiptReceived', 'paymentConfirmed', 'paymentRefused', 'holdExpiring', 'holdExpired', 'waitlistJoined', 'teamPlace')`,
    ),
  ],
);

export type MailRow = typeof mailOutbox.$inferSelect;
