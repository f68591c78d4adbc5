-- Public pages are cached in every server process (docs/decisions/015-page-cache.md). Any write to
-- a table a public page shows, from the site, npm run import, npm run restore or plain SQL, tells
-- every process on this database to drop its cached pages, once the transaction commits.
CREATE FUNCTION ayllu_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ayllu_pages', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_events AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_event_images AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "event_images" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_notes AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "notes" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_resources AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "resources" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
--> statement-breakpoint
CREATE TRIGGER ayllu_pages_projects AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION ayllu_pages_changed();
