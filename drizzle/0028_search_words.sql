CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL,
	"titles" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_word_trgm" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
-- A title's words, each once, and whether its title holds it (or only its director or cast).
-- The search splits what a shopper types with the same expression (regular-titles.server.ts).
CREATE FUNCTION title_words(p_title text, p_director text, p_cast text)
RETURNS TABLE (word text, in_title boolean)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w, bool_or(t)
    FROM (SELECT w, true AS t
            FROM regexp_split_to_table(lower(p_title), '[^[:alnum:]]+') AS w
          UNION ALL
          SELECT w, false
            FROM regexp_split_to_table(lower(coalesce(p_director, '') || ' ' || coalesce(p_cast, '')),
                                       '[^[:alnum:]]+') AS w) AS s(w, t)
   WHERE w <> ''
   GROUP BY w
$$;
--> statement-breakpoint
-- Adds the words' counts (negative to take titles away) in word order, so two statements cannot
-- deadlock on them, and drops the words no title holds any more.
CREATE FUNCTION search_words_apply(p_changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_words AS s (word, titles, total)
  SELECT word, titles, total
    FROM jsonb_to_recordset(p_changes) AS c(word text, titles integer, total integer)
   ORDER BY word
  ON CONFLICT (word) DO UPDATE
    SET titles = s.titles + excluded.titles, total = s.total + excluded.total;
  DELETE FROM search_words
   WHERE total <= 0
     AND word IN (SELECT c.word FROM jsonb_to_recordset(p_changes) AS c(word text));
$$;
--> statement-breakpoint
-- Titles added or deleted by one statement (an import writes thousands at once): their words
-- counted in or out together.
CREATE FUNCTION search_words_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    SELECT search_words_apply(coalesce(jsonb_agg(c), '[]'))
      FROM (SELECT w.word, %1$s * count(*) FILTER (WHERE w.in_title) AS titles,
                   %1$s * count(*) AS total
              FROM %2$I AS r, LATERAL title_words(r.title, r.director, r."cast") AS w
             GROUP BY w.word) AS c$q$,
    CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END,
    CASE TG_OP WHEN 'INSERT' THEN 'new_rows' ELSE 'old_rows' END);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- One title's words changed (an edit, or an import updating it): its new words in, its old out.
CREATE FUNCTION search_words_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_apply(coalesce(jsonb_agg(c), '[]'))
     FROM (SELECT word, sum(titles) AS titles, sum(total) AS total
             FROM (SELECT word, in_title::int AS titles, 1 AS total
                     FROM title_words(NEW.title, NEW.director, NEW."cast")
                   UNION ALL
                   SELECT word, -in_title::int, -1
                     FROM title_words(OLD.title, OLD.director, OLD."cast")) AS d
            GROUP BY word
           HAVING sum(titles) <> 0 OR sum(total) <> 0) AS c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_words_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_words;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_words_insert AFTER INSERT ON regular_titles
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_count_rows();
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_words_delete AFTER DELETE ON regular_titles
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_count_rows();
--> statement-breakpoint
-- Per row, and only when a title's words may have changed: an order taking stock sets
-- qty_to_list alone and never fires it.
CREATE TRIGGER regular_titles_search_words_update AFTER UPDATE OF title, director, "cast"
  ON regular_titles FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.director IS DISTINCT FROM NEW.director
        OR OLD."cast" IS DISTINCT FROM NEW."cast")
  EXECUTE FUNCTION search_words_update();
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_words_truncate AFTER TRUNCATE ON regular_titles
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_truncate();
--> statement-breakpoint
INSERT INTO search_words (word, titles, total)
SELECT w.word, count(*) FILTER (WHERE w.in_title), count(*)
  FROM regular_titles AS r, LATERAL title_words(r.title, r.director, r."cast") AS w
 GROUP BY w.word;
