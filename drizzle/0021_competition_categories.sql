-- A competition's categories (decision 051): an event with at least one is a competition. The next
-- issue's teams will reference a category (so that one with teams cannot be deleted); the event's
-- deletion takes its categories. Their changes show on the event's page, cached like every public
-- page: the trigger of 0002 tells every process to drop its cached pages.
CREATE TABLE "competition_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"level" text NOT NULL,
	"min_members" integer NOT NULL,
	"max_members" integer NOT NULL,
	"coach_required" boolean NOT NULL,
	"robot_rules" text DEFAULT '' NOT NULL,
	"max_weight_grams" integer,
	"max_size_cm" integer,
	"capacity" integer,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"registration_closes_at" timestamp with time zone NOT NULL,
	"format" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	CONSTRAINT "competition_categories_level_check" CHECK ("competition_categories"."level" in ('primaria', 'secundaria', 'universidad', 'abierta')),
	CONSTRAINT "competition_categories_format_check" CHECK ("competition_categories"."format" in ('tiempo', 'llaves', 'puntaje')),
	CONSTRAINT "competition_categories_members_check" CHECK ("competition_categories"."min_members" between 1 and 10 and "competition_categories"."max_members" between "competition_categories"."min_members" and 10),
	CONSTRAINT "competition_categories_limits_check" CHECK (("competition_categories"."max_weight_grams" is null or "competition_categories"."max_weight_grams" between 1 and 1000000) and ("competition_categories"."max_size_cm" is null or "competition_categories"."max_size_cm" between 1 and 1000)),
	CONSTRAINT "competition_categories_capacity_check" CHECK ("competition_categories"."capacity" is null or "competition_categories"."capacity" between 1 and 100000),
	CONSTRAINT "competition_categories_fee_check" CHECK ("competition_categories"."fee_cents" between 0 and 10000000)
);
--> statement-breakpoint
ALTER TABLE "competition_categories" ADD CONSTRAINT "competition_categories_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "competition_categories_event_id_position_idx" ON "competition_categories" USING btree ("event_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_categories_event_name_key" ON "competition_categories" USING btree ("event_id",lower("name"));--> statement-breakpoint
CREATE TRIGGER ayllu_pages_competition_categories AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "competition_categories" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
