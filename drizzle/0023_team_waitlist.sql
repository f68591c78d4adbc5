-- Teams wait for a place (decision 056): a team registered in a full category is 'waiting' and
-- takes the first place that frees. A team's event is its category's, and a member's category is
-- their team's: composite references say so to the database (the unique keys they point to come
-- first). A payment that took money stays when its payer deletes their account, without them.
ALTER TABLE "competition_teams" DROP CONSTRAINT "competition_teams_status_check";--> statement-breakpoint
ALTER TABLE "competition_teams" DROP CONSTRAINT "competition_teams_category_id_competition_categories_id_fk";--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "team_members" DROP CONSTRAINT "team_members_team_id_competition_teams_id_fk";--> statement-breakpoint
ALTER TABLE "team_members" DROP CONSTRAINT "team_members_category_id_competition_categories_id_fk";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "competition_categories" ADD CONSTRAINT "competition_categories_id_event_key" UNIQUE("id","event_id");--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_id_category_key" UNIQUE("id","category_id");--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_category_event_fk" FOREIGN KEY ("category_id","event_id") REFERENCES "public"."competition_categories"("id","event_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_category_fk" FOREIGN KEY ("team_id","category_id") REFERENCES "public"."competition_teams"("id","category_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_teams" ADD CONSTRAINT "competition_teams_status_check" CHECK ("competition_teams"."status" in ('waiting', 'pending', 'approved', 'rejected', 'withdrawn'));--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_check";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_check" CHECK ("mail_outbox"."kind" in ('joined', 'left', 'seat', 'reminder', 'changed', 'deleted', 'sessionCancelled', 'welcome', 'message', 'paymentPending', 'receiptReceived', 'paymentConfirmed', 'paymentRefused', 'holdExpiring', 'holdExpired', 'waitlistJoined', 'teamPlace'));--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payer_check" CHECK ("payments"."user_id" is not null or "payments"."status" in ('confirmed', 'refunded'));
