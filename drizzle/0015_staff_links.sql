CREATE TABLE "staff_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"label" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	CONSTRAINT "staff_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "participations" ADD COLUMN "checked_in_by_link" uuid;--> statement-breakpoint
ALTER TABLE "staff_links" ADD CONSTRAINT "staff_links_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_links" ADD CONSTRAINT "staff_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_links" ADD CONSTRAINT "staff_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_links_event_id_idx" ON "staff_links" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "staff_links_created_by_idx" ON "staff_links" USING btree ("created_by");--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_checked_in_by_link_staff_links_id_fk" FOREIGN KEY ("checked_in_by_link") REFERENCES "public"."staff_links"("id") ON DELETE set null ON UPDATE no action;