-- Rendered catalogue pages are kept by every server process (server/page-cache.ts). Any change
-- to what those pages show tells every process at commit: one notification per statement,
-- carrying a number from a sequence (no row is locked, so busy checkouts do not queue behind
-- each other). Whatever makes the change (the back office, a CSV import, the seed, checkout
-- taking stock, psql) is covered, because the database itself speaks.
CREATE SEQUENCE "catalogue_version";
--> statement-breakpoint
CREATE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', nextval('catalogue_version')::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "regular_titles_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "regular_titles" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "adult_titles_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "adult_titles" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "coming_soon_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coming_soon" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "staff_picks_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "staff_picks" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
