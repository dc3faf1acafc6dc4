-- A change of stock alone (an order placed, paid, expired or cancelled) no longer clears every
-- kept page: its notification names the titles whose stock line changed, and each process drops
-- only the pages that show one of them (server/page-cache.ts). Under steady sales of the last few
-- copies, clearing everything on every order left the cache nearly empty and browsing rendered
-- every page (decision 004).
--
-- Payload: '<version>' for a change that may touch any page (anything but stock, inserts,
-- deletes), '<version> <kind>:<serial>,<serial>…' for stock alone. More titles than fit a
-- notification comfortably fall back to the plain form.
CREATE OR REPLACE FUNCTION "catalogue_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  stock text := TG_ARGV[0];
  serial text := TG_ARGV[1];
  kind text := TG_ARGV[2];
  titles text;
  how_many int;
BEGIN
  IF EXISTS (SELECT to_jsonb(n) - stock - 'updated_at' FROM new_rows AS n
             EXCEPT ALL
             SELECT to_jsonb(o) - stock - 'updated_at' FROM old_rows AS o)
  THEN
    PERFORM pg_notify('catalogue_changed', nextval('catalogue_version')::text);
    RETURN NULL;
  END IF;
  -- Stock alone: the titles at or below three copies before or after (FEW_LEFT), whose pages
  -- read differently now.
  SELECT string_agg(DISTINCT s, ','), count(DISTINCT s)
    INTO titles, how_many
    FROM (SELECT to_jsonb(o) ->> serial AS s FROM old_rows AS o
           WHERE (to_jsonb(o) ->> stock)::int <= 3
          UNION ALL
          SELECT to_jsonb(n) ->> serial FROM new_rows AS n
           WHERE (to_jsonb(n) ->> stock)::int <= 3) AS low;
  IF how_many > 500 THEN
    PERFORM pg_notify('catalogue_changed', nextval('catalogue_version')::text);
  ELSIF how_many > 0 THEN
    PERFORM pg_notify('catalogue_changed',
                      nextval('catalogue_version')::text || ' ' || kind || ':' || titles);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "regular_titles_catalogue_rows_changed" ON "regular_titles";
--> statement-breakpoint
CREATE TRIGGER "regular_titles_catalogue_rows_changed" AFTER UPDATE ON "regular_titles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_rows_changed"('qty_to_list', 'reg_serial_no', 'regular');
--> statement-breakpoint
DROP TRIGGER "adult_titles_catalogue_rows_changed" ON "adult_titles";
--> statement-breakpoint
CREATE TRIGGER "adult_titles_catalogue_rows_changed" AFTER UPDATE ON "adult_titles" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_rows_changed"('quantity', 'adult_serial_no', 'adult');
