-- Paid registrations (decision 048): an event's price in centavos (0: free) and how long a place
-- is held for its payment; the site's one way to be paid (the bank's QR in the private store, the
-- account holder, bank and instructions); the payments, each for a registration (or, later, a
-- team), with a short reference made as the certificates' codes are (8 characters of Crockford's
-- base32 from a version 4 UUID's random bytes, its version byte skipped).
CREATE FUNCTION ayllu_payment_reference() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', get_byte(r.b, p.i) % 32 + 1, 1), '' ORDER BY p.n)
  FROM (SELECT uuid_send(gen_random_uuid()) AS b) r,
       unnest(ARRAY[0, 1, 2, 3, 4, 5, 7, 8]) WITH ORDINALITY AS p(i, n)
$$;
--> statement-breakpoint
CREATE TABLE "payment_method" (
	"id" text PRIMARY KEY DEFAULT 'site' NOT NULL,
	"qr_file" text,
	"qr_uploaded_at" timestamp with time zone,
	"qr_expires_on" date,
	"account_holder" text DEFAULT '' NOT NULL,
	"bank" text DEFAULT '' NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by" uuid,
	CONSTRAINT "payment_method_one_row_check" CHECK ("payment_method"."id" = 'site'),
	CONSTRAINT "payment_method_qr_file_check" CHECK ("payment_method"."qr_file" is null or "payment_method"."qr_file" ~ '^[0-9a-f]{32}\.png$')
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "price_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_method" ADD CONSTRAINT "payment_method_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_price_cents_check" CHECK ("events"."price_cents" between 0 and 10000000);--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_kind" text DEFAULT 'registration' NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"team_id" uuid,
	"reference" text DEFAULT ayllu_payment_reference() NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"held_until" timestamp with time zone,
	"receipt_file" text,
	"transaction_number" text,
	"submitted_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decided_by_name" text,
	"refusal_reason" text,
	"left_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"refunded_by" uuid,
	"refund_note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payments_subject_kind_check" CHECK ("payments"."subject_kind" in ('registration', 'team')),
	CONSTRAINT "payments_subject_check" CHECK (("payments"."subject_kind" = 'registration') = ("payments"."team_id" is null)),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('pending', 'submitted', 'refused', 'confirmed', 'waived', 'expired', 'cancelled', 'refunded')),
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" between 0 and 10000000),
	CONSTRAINT "payments_reference_format" CHECK ("payments"."reference" ~ '^[0-9A-HJKMNP-TV-Z]{8}$'),
	CONSTRAINT "payments_receipt_file_check" CHECK ("payments"."receipt_file" is null or "payments"."receipt_file" ~ '^[0-9a-f]{32}\.(png|jpg|pdf)$')
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "hold_hours" integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_by_users_id_fk" FOREIGN KEY ("refunded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_registration_live_key" ON "payments" USING btree ("event_id","user_id") WHERE "payments"."subject_kind" = 'registration' and "payments"."status" in ('pending', 'submitted', 'refused', 'confirmed', 'waived');--> statement-breakpoint
CREATE INDEX "payments_user_id_idx" ON "payments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payments_status_held_until_idx" ON "payments" USING btree ("status","held_until");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_hold_hours_check" CHECK ("events"."hold_hours" between 1 and 720);--> statement-breakpoint
-- The mails of a payment's steps, and of joining a waiting list.
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'sessionCancelled', 'welcome', 'message', 'paymentPending', 'receiptReceived', 'paymentConfirmed', 'paymentRefused', 'holdExpiring', 'holdExpired', 'waitlistJoined'));