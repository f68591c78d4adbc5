-- Paid registrations (decision 046), part A: an event's price in centavos (0: free) and the site's one way to be paid
-- (the bank's QR in the private store, the account holder, bank and instructions).
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
ALTER TABLE "events" ADD CONSTRAINT "events_price_cents_check" CHECK ("events"."price_cents" between 0 and 10000000);