-- The door of a competition (decision 055): robots' inspections (homologación), when each category
-- starts (inspections close then; null: the event's start), and participations that take no seat
-- (a competitor checked in at the door without having registered for the audience).
CREATE TABLE "team_inspections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"result" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"inspected_by" uuid,
	"inspected_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_inspections_result_check" CHECK ("team_inspections"."result" in ('passed', 'failed')),
	CONSTRAINT "team_inspections_notes_check" CHECK (char_length("team_inspections"."notes") <= 500)
);
--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participations" ADD COLUMN "seat" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "team_inspections" ADD CONSTRAINT "team_inspections_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_inspections" ADD CONSTRAINT "team_inspections_inspected_by_users_id_fk" FOREIGN KEY ("inspected_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_inspections_team_id_created_at_idx" ON "team_inspections" USING btree ("team_id","created_at");--> statement-breakpoint
CREATE INDEX "team_inspections_inspected_by_idx" ON "team_inspections" USING btree ("inspected_by");