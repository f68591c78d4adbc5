-- Teams register in a competition's categories (decision 052): schools, teams, their members and
-- invitations. A team references its category without cascade (a category with teams cannot be
-- deleted); the event's deletion takes its teams in the same statement. Teams show on the event's
-- page, cached like every public page: the trigger of 0002 tells every process to drop its pages.
CREATE TABLE "competition_teams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"name" text NOT NULL,
	"school_id" uuid NOT NULL,
	"city" text NOT NULL,
	"robot_name" text NOT NULL,
	"robot_photo" text,
	"captain_id" uuid,
	"coach_id" uuid,
	"coach_confirmed_at" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"review_reason" text,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_by_name" text,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "competition_teams_status_check" CHECK ("competition_teams"."status" in ('pending', 'approved', 'rejected', 'withdrawn')),
	CONSTRAINT "competition_teams_text_check" CHECK (char_length("competition_teams"."name") between 1 and 60 and char_length("competition_teams"."city") between 1 and 60 and char_length("competition_teams"."robot_name") between 1 and 60 and ("competition_teams"."review_reason" is null or char_length("competition_teams"."review_reason") <= 500)),
	CONSTRAINT "competition_teams_robot_photo_check" CHECK ("competition_teams"."robot_photo" is null or "competition_teams"."robot_photo" ~ '^/imagenes/[0-9a-f]{32}-[0-9]+\.webp$')
);
--> statement-breakpoint
CREATE TABLE "schools" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schools_name_check" CHECK (char_length("schools"."name") between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "team_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"code" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "team_invitations_code_unique" UNIQUE("code"),
	CONSTRAINT "team_invitations_code_check" CHECK ("team_invitations"."code" ~ '^[0-9A-HJKMNP-TV-Z]{16}$')
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"category_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_captain_id_users_id_fk" FOREIGN KEY ("captain_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_coach_id_users_id_fk" FOREIGN KEY ("coach_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "competition_teams_category_name_key" ON "competition_teams" USING btree ("category_id",lower("name")) WHERE "competition_teams"."status" <> 'withdrawn';--> statement-breakpoint
CREATE INDEX "competition_teams_event_id_idx" ON "competition_teams" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "competition_teams_school_id_idx" ON "competition_teams" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "competition_teams_captain_id_idx" ON "competition_teams" USING btree ("captain_id");--> statement-breakpoint
CREATE INDEX "competition_teams_coach_id_idx" ON "competition_teams" USING btree ("coach_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schools_name_key" ON "schools" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "team_invitations_team_id_idx" ON "team_invitations" USING btree ("team_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_category_user_key" ON "team_members" USING btree ("category_id","user_id");--> statement-breakpoint
CREATE INDEX "team_members_user_id_idx" ON "team_members" USING btree ("user_id");;--> statement-breakpoint
CREATE TRIGGER ayllu_pages_competition_teams AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "competition_teams" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();--> statement-breakpoint
CREATE TRIGGER ayllu_pages_team_members AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();--> statement-breakpoint
CREATE TRIGGER ayllu_pages_schools AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "schools" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
