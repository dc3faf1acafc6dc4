-- Rendered catalogue pages are kept by every server process (server/page-cache.ts). Any change
-- to what those pages show tells every process at commit: one notification per statement,
-- carrying a number from a sequence (no row is locked, so busy checkouts do not queue behind
-- each other). Whatever makes the change (the back office, a CSV import, the seed, checkout
-- taking stock, psql) is covered, because the database itself speaks.
--
-- Stock is shown only as "In stock", "Only N left" (N <= 3, FEW_LEFT in
-- app/components/title-detail.tsx) or "Out of stock": an update that changes nothing but stock
-- above that line (most orders) changes no page and clears no cache.
CREATE SEQUENCE "catalogue_version";
--> statement-breakpoint
CREATE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', nextval('catalogue_version')::text);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "catalogue_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock text := TG_ARGV[0];
BEGIN
  IF EXISTS (SELECT to_jsonb(n) - stock - 'updated_at' FROM new_rows AS n
             EXCEPT ALL
             SELECT to_jsonb(o) - stock - 'updated_at' FROM old_rows AS o)
     OR EXISTS (SELECT 1 FROM old_rows AS o WHERE (to_jsonb(o) ->> stock)::int <= 3)
     OR EXISTS (SELECT 1 FROM new_rows AS n WHERE (to_jsonb(n) ->> stock)::int <= 3)
  THEN
    PERFORM pg_notify('catalogue_changed', nextval('catalogue_version')::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "regular_titles_catalogue_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "regular_titles" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "regular_titles_catalogue_rows_changed" AFTER UPDATE ON "regular_titles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_rows_changed"('qty_to_list');
--> statement-breakpoint
CREATE TRIGGER "adult_titles_catalogue_changed" AFTER INSERT OR DELETE OR TRUNCATE ON "adult_titles" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "adult_titles_catalogue_rows_changed" AFTER UPDATE ON "adult_titles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_rows_changed"('quantity');
--> statement-breakpoint
CREATE TRIGGER "coming_soon_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "coming_soon" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "staff_picks_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "staff_picks" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
