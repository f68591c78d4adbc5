CREATE TABLE "event_waitlist" (
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	CONSTRAINT "event_waitlist_event_id_user_id_pk" PRIMARY KEY("event_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "participations" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_token_hash" text;--> statement-breakpoint
ALTER TABLE "event_waitlist" ADD CONSTRAINT "event_waitlist_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_waitlist" ADD CONSTRAINT "event_waitlist_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_waitlist_order_idx" ON "event_waitlist" USING btree ("event_id","created_at","user_id");--> statement-breakpoint
CREATE INDEX "event_waitlist_user_id_idx" ON "event_waitlist" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_calendar_token_hash_unique" UNIQUE("calendar_token_hash");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_capacity_check" CHECK ("events"."capacity" is null or "events"."capacity" >= 1);--> statement-breakpoint
-- Event pages show seats left, so joining, leaving and the waiting list clear the page cache too
-- (docs/decisions/015-page-cache.md; the function is the one of 0002_page_notify.sql).
CREATE TRIGGER ayllu_pages_participations AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "participations" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_event_waitlist AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "event_waitlist" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
