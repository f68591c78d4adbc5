CREATE TABLE "site_content" (
	"section" text PRIMARY KEY NOT NULL,
	"content" jsonb NOT NULL,
	"edited_at" timestamp with time zone,
	"edited_by" uuid
);
--> statement-breakpoint
ALTER TABLE "site_content" ADD CONSTRAINT "site_content_edited_by_users_id_fk" FOREIGN KEY ("edited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The landing pages show this content, so a change clears the page cache of every process
-- (docs/decisions/015-page-cache.md; the function is the one of 0002_page_notify.sql).
CREATE TRIGGER ayllu_pages_site_content AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_content" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
