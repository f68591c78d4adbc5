-- Every event has an end (decision 030): the events published before it get their start + 2 hours.
ALTER TABLE "events" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
UPDATE "events" SET "ends_at" = "starts_at" + interval '2 hours';--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "ends_at" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "events_ends_at_idx" ON "events" USING btree ("ends_at");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_ends_after_start_check" CHECK ("events"."ends_at" > "events"."starts_at");
