-- Events as a series of sessions (decision 043): every event published before gets one session
-- spanning it, with the event's own id (its calendars' UID stays the same).
CREATE TABLE "event_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"place" text,
	"link" text,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_sessions_ends_after_start_check" CHECK ("event_sessions"."ends_at" > "event_sessions"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "event_sessions" ADD CONSTRAINT "event_sessions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_sessions_event_id_starts_at_idx" ON "event_sessions" USING btree ("event_id","starts_at");--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'sessionCancelled', 'welcome', 'message'));--> statement-breakpoint
INSERT INTO "event_sessions" ("id", "event_id", "starts_at", "ends_at", "created_at") SELECT "id", "id", "starts_at", "ends_at", "created_at" FROM "events";