CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"event_id" uuid,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_id" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_dedupe_key_unique" UNIQUE("dedupe_key"),
	CONSTRAINT "mail_outbox_status_check" CHECK ("mail_outbox"."status" in ('pending', 'sending', 'sent', 'failed')),
	CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'welcome', 'message'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_token" text DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "mail_off" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "mail_outbox_user_id_idx" ON "mail_outbox" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_created_at_idx" ON "mail_outbox" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_mail_token_unique" UNIQUE("mail_token");--> statement-breakpoint
-- A queued mail wakes the mail worker of every process on this database once the transaction that
-- wrote it commits (docs/decisions/021-mail.md); the workers race for it with SKIP LOCKED.
-- Only a statement that queued rows says so: the worker's own
-- run queues due reminders with an insert that is usually empty, and had that announced mail,
-- each run would wake the next one, for ever.
CREATE FUNCTION ayllu_mail_queued() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM queued) THEN
    PERFORM pg_notify('ayllu_mail', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ayllu_mail_outbox_queued AFTER INSERT ON "mail_outbox" REFERENCING NEW TABLE AS queued FOR EACH STATEMENT EXECUTE FUNCTION ayllu_mail_queued();
