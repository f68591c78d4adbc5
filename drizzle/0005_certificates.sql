-- Certificates of attendance (docs/decisions/020-certificates.md). Every participation carries the
-- code of its certificate from the moment it is made: 12 characters of Crockford's base32 (no I, L,
-- O or U), 60 random bits from the database's strong random source (a version 4 UUID's random
-- bytes; its version byte is skipped). Existing participations get one each as the column is added.
CREATE FUNCTION ayllu_certificate_code() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', get_byte(r.b, p.i) % 32 + 1, 1), '' ORDER BY p.n)
  FROM (SELECT uuid_send(gen_random_uuid()) AS b) r,
       unnest(ARRAY[0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]) WITH ORDINALITY AS p(i, n)
$$;
--> statement-breakpoint
ALTER TABLE "participations" ADD COLUMN "certificate_code" text DEFAULT ayllu_certificate_code() NOT NULL;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_certificate_code_unique" UNIQUE("certificate_code");--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_certificate_code_format" CHECK ("participations"."certificate_code" ~ '^[0-9A-HJKMNP-TV-Z]{12}$');
--> statement-breakpoint
-- The public certificate page (/certificados/{code}) shows the member's name, so a change of name
-- clears the page cache too (docs/decisions/015-page-cache.md). Only a real change does: signing in
-- writes the same display name again.
CREATE TRIGGER ayllu_pages_users_names AFTER UPDATE OF nombre_completo, display_name ON "users" FOR EACH ROW WHEN (OLD.nombre_completo IS DISTINCT FROM NEW.nombre_completo OR OLD.display_name IS DISTINCT FROM NEW.display_name) EXECUTE FUNCTION ayllu_pages_changed();
