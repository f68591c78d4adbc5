-- Recurring meetups (decision 045): the sessions a participant said they will miss (no reminder for
-- those), and events that give no certificate (certificate_share null, as a weekly club).
CREATE TABLE "session_skips" (
	"session_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_skips_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "certificate_share" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "session_skips" ADD CONSTRAINT "session_skips_session_id_event_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."event_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_skips" ADD CONSTRAINT "session_skips_participation_fk" FOREIGN KEY ("user_id","event_id") REFERENCES "public"."participations"("user_id","event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_skips_event_id_user_id_idx" ON "session_skips" USING btree ("event_id","user_id");