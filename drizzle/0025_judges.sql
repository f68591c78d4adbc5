-- Competition day (decision 057): judges scoped to one category (role_grants.category_id, with its
-- event: the pair references the category, and the grant goes with it), what judges enter as typed
-- (time trial runs, a bracket's draw and rounds, score sheets; each entry standing, in conflict,
-- replaced or rejected), and each category's judging rules and final mark. Results are public
-- pages, cached: the trigger of 0002 tells every process to drop its pages when they change.
CREATE TABLE "bracket_draws" (
	"category_id" uuid PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"seed" bigint,
	"team_ids" uuid[] NOT NULL,
	"made_by" uuid,
	"made_by_name" text NOT NULL,
	"made_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bracket_draws_method_check" CHECK (("bracket_draws"."method" = 'sorteo' and "bracket_draws"."seed" between 0 and 4294967295) or ("bracket_draws"."method" = 'siembra' and "bracket_draws"."seed" is null))
);
--> statement-breakpoint
CREATE TABLE "bracket_rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" uuid NOT NULL,
	"match_key" text NOT NULL,
	"round" integer NOT NULL,
	"winner_team_id" uuid NOT NULL,
	"state" text DEFAULT 'standing' NOT NULL,
	"entered_by" uuid,
	"entered_by_name" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_entry_id" text,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "bracket_rounds_state_check" CHECK ("bracket_rounds"."state" in ('standing', 'conflict', 'replaced', 'rejected')),
	CONSTRAINT "bracket_rounds_client_entry_id_check" CHECK ("bracket_rounds"."client_entry_id" is null or "bracket_rounds"."client_entry_id" ~ '^[A-Za-z0-9_-]{8,64}$'),
	CONSTRAINT "bracket_rounds_values_check" CHECK ("bracket_rounds"."round" between 1 and 3 and "bracket_rounds"."match_key" ~ '^(r[0-9]{1,2}-[0-9]{1,4}|tercer-puesto)$')
);
--> statement-breakpoint
CREATE TABLE "judging_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"time_ms" integer,
	"penalty_ms" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'standing' NOT NULL,
	"entered_by" uuid,
	"entered_by_name" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_entry_id" text,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "judging_runs_state_check" CHECK ("judging_runs"."state" in ('standing', 'conflict', 'replaced', 'rejected')),
	CONSTRAINT "judging_runs_client_entry_id_check" CHECK ("judging_runs"."client_entry_id" is null or "judging_runs"."client_entry_id" ~ '^[A-Za-z0-9_-]{8,64}$'),
	CONSTRAINT "judging_runs_values_check" CHECK ("judging_runs"."attempt" between 1 and 10 and ("judging_runs"."time_ms" is null or "judging_runs"."time_ms" between 1 and 3600000) and "judging_runs"."penalty_ms" between 0 and 600000)
);
--> statement-breakpoint
CREATE TABLE "score_sheets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"judge_id" uuid,
	"judge_name" text NOT NULL,
	"points" jsonb NOT NULL,
	"state" text DEFAULT 'standing' NOT NULL,
	"entered_by" uuid,
	"entered_by_name" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"client_entry_id" text,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "score_sheets_state_check" CHECK ("score_sheets"."state" in ('standing', 'conflict', 'replaced', 'rejected')),
	CONSTRAINT "score_sheets_client_entry_id_check" CHECK ("score_sheets"."client_entry_id" is null or "score_sheets"."client_entry_id" ~ '^[A-Za-z0-9_-]{8,64}$')
);
--> statement-breakpoint
ALTER TABLE "role_grants" DROP CONSTRAINT "role_grants_user_kind_event_key";--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "tie_rule" text;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "attempts" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "criteria" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "final_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "final_by" uuid;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD COLUMN "final_by_name" text;--> statement-breakpoint
ALTER TABLE "role_grants" ADD COLUMN "category_id" uuid;--> statement-breakpoint
ALTER TABLE "bracket_draws" ADD CONSTRAINT "bracket_draws_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bracket_draws" ADD CONSTRAINT "bracket_draws_made_by_users_id_fk" FOREIGN KEY ("made_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bracket_rounds" ADD CONSTRAINT "bracket_rounds_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bracket_rounds" ADD CONSTRAINT "bracket_rounds_winner_team_id_competition_teams_id_fk" FOREIGN KEY ("winner_team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bracket_rounds" ADD CONSTRAINT "bracket_rounds_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bracket_rounds" ADD CONSTRAINT "bracket_rounds_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judging_runs" ADD CONSTRAINT "judging_runs_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judging_runs" ADD CONSTRAINT "judging_runs_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judging_runs" ADD CONSTRAINT "judging_runs_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "judging_runs" ADD CONSTRAINT "judging_runs_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_judge_id_users_id_fk" FOREIGN KEY ("judge_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "score_sheets" ADD CONSTRAINT "score_sheets_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bracket_draws_made_by_idx" ON "bracket_draws" USING btree ("made_by");--> statement-breakpoint
CREATE UNIQUE INDEX "bracket_rounds_client_entry_key" ON "bracket_rounds" USING btree ("category_id","client_entry_id") WHERE "bracket_rounds"."client_entry_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "bracket_rounds_standing_key" ON "bracket_rounds" USING btree ("category_id","match_key","round") WHERE "bracket_rounds"."state" = 'standing';--> statement-breakpoint
CREATE INDEX "bracket_rounds_winner_team_id_idx" ON "bracket_rounds" USING btree ("winner_team_id");--> statement-breakpoint
CREATE INDEX "bracket_rounds_entered_by_idx" ON "bracket_rounds" USING btree ("entered_by");--> statement-breakpoint
CREATE UNIQUE INDEX "judging_runs_client_entry_key" ON "judging_runs" USING btree ("category_id","client_entry_id") WHERE "judging_runs"."client_entry_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "judging_runs_standing_key" ON "judging_runs" USING btree ("category_id","team_id","attempt") WHERE "judging_runs"."state" = 'standing';--> statement-breakpoint
CREATE INDEX "judging_runs_team_id_idx" ON "judging_runs" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "judging_runs_entered_by_idx" ON "judging_runs" USING btree ("entered_by");--> statement-breakpoint
CREATE UNIQUE INDEX "score_sheets_client_entry_key" ON "score_sheets" USING btree ("category_id","client_entry_id") WHERE "score_sheets"."client_entry_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "score_sheets_standing_key" ON "score_sheets" USING btree ("category_id","team_id","judge_id") WHERE "score_sheets"."state" = 'standing';--> statement-breakpoint
CREATE INDEX "score_sheets_team_id_idx" ON "score_sheets" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "score_sheets_judge_id_idx" ON "score_sheets" USING btree ("judge_id");--> statement-breakpoint
CREATE INDEX "score_sheets_entered_by_idx" ON "score_sheets" USING btree ("entered_by");--> statement-breakpoint
ALTER TABLE "competition_categories" ADD CONSTRAINT "competition_categories_final_by_users_id_fk" FOREIGN KEY ("final_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_category_fk" FOREIGN KEY ("category_id","event_id") REFERENCES "public"."competition_categories"("id","event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_user_kind_event_category_key" UNIQUE NULLS NOT DISTINCT("user_id","kind","event_id","category_id");--> statement-breakpoint
ALTER TABLE "competition_categories" ADD CONSTRAINT "competition_categories_tie_rule_check" CHECK ("competition_categories"."tie_rule" is null or "competition_categories"."tie_rule" in ('segundo-tiempo', 'menos-penalizaciones', 'compartido', 'tercer-puesto', 'tercero-compartido', 'primer-criterio', 'mejor-nota'));--> statement-breakpoint
ALTER TABLE "competition_categories" ADD CONSTRAINT "competition_categories_attempts_check" CHECK ("competition_categories"."attempts" between 1 and 10);--> statement-breakpoint
ALTER TABLE "role_grants" ADD CONSTRAINT "role_grants_category_check" CHECK (("role_grants"."kind" = 'judge') = ("role_grants"."category_id" is not null and "role_grants"."event_id" is not null));--> statement-breakpoint
CREATE TRIGGER ayllu_pages_judging_runs AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "judging_runs" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();--> statement-breakpoint
CREATE TRIGGER ayllu_pages_bracket_draws AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bracket_draws" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();--> statement-breakpoint
CREATE TRIGGER ayllu_pages_bracket_rounds AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "bracket_rounds" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();--> statement-breakpoint
CREATE TRIGGER ayllu_pages_score_sheets AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "score_sheets" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
