-- A serial is never given twice, and an import and a title added in the form never collide.
-- Every insert into a catalogue first takes that catalogue's serial lock (held to the end of the
-- transaction, before any default serial is drawn), and after each insert the identity sequence
-- is moved past the highest serial the statement wrote, so the next default serial is the
-- highest ever issued plus one, whether or not that title still exists.
CREATE FUNCTION catalogue_serial_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_NAME || '.serial'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION catalogue_serial_advance() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sequence regclass := pg_get_serial_sequence(TG_TABLE_NAME, TG_ARGV[0])::regclass;
  top integer;
BEGIN
  EXECUTE format('SELECT max(%I) FROM new_rows', TG_ARGV[0]) INTO top;
  IF top > coalesce(pg_sequence_last_value(sequence), 0) THEN
    PERFORM setval(sequence, top);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_serial_lock BEFORE INSERT ON regular_titles
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_serial_lock();
--> statement-breakpoint
CREATE TRIGGER regular_titles_serial_advance AFTER INSERT ON regular_titles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalogue_serial_advance('reg_serial_no');
--> statement-breakpoint
CREATE TRIGGER adult_titles_serial_lock BEFORE INSERT ON adult_titles
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_serial_lock();
--> statement-breakpoint
CREATE TRIGGER adult_titles_serial_advance AFTER INSERT ON adult_titles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION catalogue_serial_advance('adult_serial_no');
--> statement-breakpoint
-- Serials given before this migration (the form used the maximum plus one).
SELECT setval(pg_get_serial_sequence('regular_titles', 'reg_serial_no'), top)
  FROM (SELECT max(reg_serial_no) AS top FROM regular_titles) AS m
 WHERE top > coalesce(pg_sequence_last_value(pg_get_serial_sequence('regular_titles', 'reg_serial_no')::regclass), 0);
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('adult_titles', 'adult_serial_no'), top)
  FROM (SELECT max(adult_serial_no) AS top FROM adult_titles) AS m
 WHERE top > coalesce(pg_sequence_last_value(pg_get_serial_sequence('adult_titles', 'adult_serial_no')::regclass), 0);
