CREATE TABLE "award_certificates" (
	"code" text PRIMARY KEY DEFAULT ayllu_certificate_code() NOT NULL,
	"category_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "award_certificates_code_format" CHECK ("award_certificates"."code" ~ '^[0-9A-HJKMNP-TV-Z]{12}$')
);
--> statement-breakpoint
ALTER TABLE "award_certificates" ADD CONSTRAINT "award_certificates_category_id_competition_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."competition_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_certificates" ADD CONSTRAINT "award_certificates_team_id_competition_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."competition_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "award_certificates" ADD CONSTRAINT "award_certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "award_certificates_category_user_key" ON "award_certificates" USING btree ("category_id","user_id");--> statement-breakpoint
CREATE INDEX "award_certificates_team_id_idx" ON "award_certificates" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "award_certificates_user_id_idx" ON "award_certificates" USING btree ("user_id");