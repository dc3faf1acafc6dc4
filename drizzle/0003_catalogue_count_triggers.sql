-- Keeps catalogue_counts exact. Statement-level triggers with transition tables: one upsert per
-- statement, however many rows it touches (bulk imports stay fast).
CREATE FUNCTION catalogue_counts_apply(p_catalogue text, p_disc text, p_delta bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO catalogue_counts AS c (catalogue, disc, total)
  VALUES (p_catalogue, p_disc, p_delta)
  ON CONFLICT (catalogue, disc) DO UPDATE SET total = c.total + excluded.total;
$$;
--> statement-breakpoint
CREATE FUNCTION regular_titles_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM catalogue_counts_apply('regular', d, n)
      FROM (SELECT disc AS d, count(*) AS n FROM new_rows GROUP BY disc
            UNION ALL SELECT '', count(*) FROM new_rows) AS added
      WHERE n > 0;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM catalogue_counts_apply('regular', d, -n)
      FROM (SELECT disc AS d, count(*) AS n FROM old_rows GROUP BY disc
            UNION ALL SELECT '', count(*) FROM old_rows) AS removed
      WHERE n > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_count_insert AFTER INSERT ON regular_titles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regular_titles_count_rows();
--> statement-breakpoint
CREATE TRIGGER regular_titles_count_update AFTER UPDATE ON regular_titles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regular_titles_count_rows();
--> statement-breakpoint
CREATE TRIGGER regular_titles_count_delete AFTER DELETE ON regular_titles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION regular_titles_count_rows();
--> statement-breakpoint
CREATE FUNCTION adult_titles_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM catalogue_counts_apply('adult', '', (SELECT count(*) FROM new_rows));
  ELSE
    PERFORM catalogue_counts_apply('adult', '', -(SELECT count(*) FROM old_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER adult_titles_count_insert AFTER INSERT ON adult_titles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adult_titles_count_rows();
--> statement-breakpoint
CREATE TRIGGER adult_titles_count_delete AFTER DELETE ON adult_titles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION adult_titles_count_rows();
--> statement-breakpoint
CREATE FUNCTION catalogue_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM catalogue_counts WHERE catalogue = TG_ARGV[0];
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_count_truncate AFTER TRUNCATE ON regular_titles
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_counts_truncate('regular');
--> statement-breakpoint
CREATE TRIGGER adult_titles_count_truncate AFTER TRUNCATE ON adult_titles
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_counts_truncate('adult');
--> statement-breakpoint
-- Titles that exist before this migration.
INSERT INTO catalogue_counts (catalogue, disc, total)
  SELECT 'regular', disc, count(*) FROM regular_titles GROUP BY disc
  UNION ALL SELECT 'regular', '', count(*) FROM regular_titles
  UNION ALL SELECT 'adult', '', count(*) FROM adult_titles
ON CONFLICT (catalogue, disc) DO UPDATE SET total = excluded.total;
