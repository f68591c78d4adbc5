// Payments: the bank's payment method and the payments of places and team fees (app/payments).
import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "./columns.server";
import { events } from "./events.server";
import { users } from "./members.server";

/**
 * The site's way to be paid (decision 048): one row, set by an admin or a treasurer. The QR is the
 * static one the community's bank app produces, kept lossless as a PNG in the private store
 * (app/uploads/private-storage.server.ts) under `qr_file`; `qr_expires_on` is the date the bank
 * prints on it, when it has one.
 */
export const paymentMethod = pgTable(
  "payment_method",
  {
    id: text("id").primaryKey().default("site"),
    qrFile: text("qr_file"),
    qrUploadedAt: timestamp("qr_uploaded_at", { withTimezone: true }),
    qrExpiresOn: date("qr_expires_on", { mode: "string" }),
    accountHolder: text("account_holder").notNull().default(""),
    bank: text("bank").notNull().default(""),
    instructions: text("instructions").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    check("payment_method_one_row_check", sql`${t.id} = 'site'`),
    check(
      "payment_method_qr_file_check",
      sql`${t.qrFile} is null or ${t.qrFile} ~ '^[0-9a-f]{32}\\.png$'`,
    ),
  ],
);

export type PaymentMethod = typeof paymentMethod.$inferSelect;

/**
 * A payment (decision 048) for a payable subject: a member's registration at a paid event, or
 * (the competition's issue) a team. `status`: 'pending' — the place is held until `held_until`;
 * 'submitted' — a receipt or a transaction number came, the place is held until a treasurer
 * decides; 'refused' — a treasurer refused what came, with a reason, and the place is held again
 * until `held_until`; 'confirmed', 'waived' (a grant: nothing to pay); 'expired' (the hold ran
 * out, the place went to the next person waiting); 'cancelled' (the member left before paying);
 * 'refunded' (they left after paying and got the money back). A row is never deleted but with its
 * event, or with its member's account when it took no money: it is the record of the money.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subjectKind: text("subject_kind").notNull().default("registration"),
    eventId: uuid("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /**
     * Who pays: the registered member (for a team, its captain). Null once they deleted their
     * account: a payment that took money (confirmed or refunded) stays as the community's record
     * of it, without the person; the others go with the account (app/member-data.server.ts).
     */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    /** The team paid for, when the subject is a team; null for a registration. */
    teamId: uuid("team_id"),
    /**
     * What the payer writes in the transfer's description: 8 characters of Crockford's base32 (no
     * I, L, O or U), from the database's random source, as the certificates' codes are made.
     */
    reference: text("reference")
      .notNull()
      .unique()
      .default(sql`ayllu_payment_reference()`),
    amountCents: integer("amount_cents").notNull(),
    status: text("status").notNull().default("pending"),
    /** Until when the place is held while nothing has been sent ('pending'). */
    heldUntil: timestamp("held_until", { withTimezone: true }),
    /**
     * The receipt in the private store: a photo as JPEG or PNG, a PDF's pages drawn as one JPEG,
     * or a PDF kept as sent before decision 061.
     */
    receiptFile: text("receipt_file"),
    transactionNumber: text("transaction_number"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    /** The treasurer's (or admin's) last decision: confirmed, refused, waived. */
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: uuid("decided_by").references(() => users.id, { onDelete: "set null" }),
    /** Their name as it was, kept as the audit log keeps it. */
    decidedByName: text("decided_by_name"),
    /** Why it was refused, in the treasurer's words: the member reads it. */
    refusalReason: text("refusal_reason"),
    /** When the member left the event after paying (the place freed; a refund may be due). */
    leftAt: timestamp("left_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundedBy: uuid("refunded_by").references(() => users.id, { onDelete: "set null" }),
    refundNote: text("refund_note"),
    createdAt: createdAt(),
  },
  (t) => [
    // One live payment per registration: the history (expired, cancelled) stays beside it.
    uniqueIndex("payments_registration_live_key")
      .on(t.eventId, t.userId)
      .where(
        sql`${t.subjectKind} = 'registration' and ${t.status} in ('pending', 'submitted', 'refused', 'confirmed', 'waived')`,
      ),
    index("payments_user_id_idx").on(t.userId),
    index("payments_status_held_until_idx").on(t.status, t.heldUntil),
    check("payments_subject_kind_check", sql`${t.subjectKind} in ('registration', 'team')`),
    check(
      "payments_payer_check",
      sql`${t.userId} is not null or ${t.status} in ('confirmed', 'refunded')`,
    ),
    check(
      "payments_subject_check",
      sql`(${t.subjectKind} = 'registration') = (${t.teamId} is null)`,
    ),
    check(
      "payments_status_check",
      sql`${t.status} in ('pending', 'submitted', 'refused', 'confirmed', 'waived', 'expired', 'cancelled', 'refunded')`,
    ),
    check("payments_amount_check", sql`${t.amountCents} between 0 and 10000000`),
    check("payments_reference_format", sql`${t.reference} ~ '^[0-9A-HJKMNP-TV-Z]{8}$'`),
    check(
      "payments_receipt_file_check",
      sql`${t.receiptFile} is null or ${t.receiptFile} ~ '^[0-9a-f]{32}\\.(png|jpg|pdf)$'`,
    ),
  ],
);

export type Payment = typeof payments.$inferSelect;
