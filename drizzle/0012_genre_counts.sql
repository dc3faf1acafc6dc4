CREATE TABLE "genre_counts" (
	"genre" text NOT NULL,
	"disc" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "genre_counts_genre_disc_pk" PRIMARY KEY("genre","disc")
);
--> statement-breakpoint
CREATE FUNCTION genre_counts_apply(p_genre text, p_disc text, p_delta bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO genre_counts AS c (genre, disc, total)
  VALUES (p_genre, p_disc, p_delta)
  ON CONFLICT (genre, disc) DO UPDATE SET total = c.total + excluded.total;
$$;
--> statement-breakpoint
-- Kept counts change only by what a statement changed: an update of price or stock (every order
-- taking stock) leaves disc and genres as they were, returns at once and touches no count row,
-- so checkouts do not queue on them. Rows are applied in key order, so two bulk statements
-- cannot deadlock on the counts.
CREATE OR REPLACE FUNCTION regular_titles_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changed := 'SELECT disc, genres, 1 AS sign FROM new_rows';
  ELSIF TG_OP = 'DELETE' THEN
    changed := 'SELECT disc, genres, -1 AS sign FROM old_rows';
  ELSE
    -- Same number of rows before and after: nothing to count when they list the same discs and
    -- genres.
    IF NOT EXISTS (SELECT disc, genres FROM new_rows EXCEPT ALL SELECT disc, genres FROM old_rows)
    THEN
      RETURN NULL;
    END IF;
    changed := 'SELECT disc, genres, 1 AS sign FROM new_rows
                UNION ALL SELECT disc, genres, -1 FROM old_rows';
  END IF;
  EXECUTE format($q$
    SELECT catalogue_counts_apply('regular', d, n)
      FROM (SELECT d, sum(sign) AS n
              FROM (%s) AS delta, LATERAL (VALUES (disc), ('')) AS v(d)
             GROUP BY d) AS net
     WHERE n <> 0
     ORDER BY d$q$, changed);
  EXECUTE format($q$
    SELECT genre_counts_apply(g, d, n)
      FROM (SELECT g, d, sum(sign) AS n
              FROM (%s) AS delta,
                   LATERAL (SELECT DISTINCT x
                              FROM unnest(regexp_split_to_array(btrim(genres),
                                          '[[:space:]]*,[[:space:]]*')) AS x) AS l(g),
                   LATERAL (VALUES (disc), ('')) AS v(d)
             WHERE g <> ''
             GROUP BY g, d) AS net
     WHERE n <> 0
     ORDER BY g, d$q$, changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION genre_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM genre_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_genre_count_truncate AFTER TRUNCATE ON regular_titles
  FOR EACH STATEMENT EXECUTE FUNCTION genre_counts_truncate();
--> statement-breakpoint
INSERT INTO genre_counts (genre, disc, total)
SELECT g, d, count(*)
  FROM regular_titles,
       LATERAL (SELECT DISTINCT x FROM unnest(regexp_split_to_array(btrim(genres), '[[:space:]]*,[[:space:]]*')) AS x) AS l(g),
       LATERAL (VALUES (disc), ('')) AS v(d)
 WHERE g <> ''
 GROUP BY g, d;
