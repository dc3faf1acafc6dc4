CREATE TABLE "regular_title_genres" (
	"reg_serial_no" integer NOT NULL,
	"genre" text NOT NULL,
	"current_price_cents" integer NOT NULL,
	"disc" text NOT NULL,
	CONSTRAINT "regular_title_genres_reg_serial_no_genre_pk" PRIMARY KEY("reg_serial_no","genre")
);
--> statement-breakpoint
CREATE INDEX "regular_title_genres_price_sort" ON "regular_title_genres" USING btree ("genre","current_price_cents","reg_serial_no","disc");--> statement-breakpoint
-- A genre's titles in price order, kept beside regular_titles (schema.ts regularTitleGenres): the
-- genre filter sorted by price walked the whole catalogue's price index, testing each title's
-- genres, so a deep page of one genre read most of the table. The genres are split exactly as
-- the genre index (regular_titles_genres) and genre_counts split them.
CREATE FUNCTION regular_title_genres_of(p_genres text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT g
    FROM unnest(regexp_split_to_array(btrim(p_genres), '[[:space:]]*,[[:space:]]*')) AS g
   WHERE g <> '';
$$;
--> statement-breakpoint
CREATE FUNCTION regular_title_genres_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO regular_title_genres (reg_serial_no, genre, current_price_cents, disc)
  SELECT n.reg_serial_no, g, n.current_price_cents, n.disc
    FROM new_rows AS n, regular_title_genres_of(n.genres) AS g;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION regular_title_genres_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM regular_title_genres AS t USING old_rows AS o WHERE t.reg_serial_no = o.reg_serial_no;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Row by row, and only for statements that set genres, price or disc: an order taking stock
-- does not come here at all.
CREATE FUNCTION regular_title_genres_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM regular_title_genres WHERE reg_serial_no = OLD.reg_serial_no;
  INSERT INTO regular_title_genres (reg_serial_no, genre, current_price_cents, disc)
  SELECT NEW.reg_serial_no, g, NEW.current_price_cents, NEW.disc
    FROM regular_title_genres_of(NEW.genres) AS g;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION regular_title_genres_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE regular_title_genres;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_title_genres_insert AFTER INSERT ON regular_titles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION regular_title_genres_insert();
--> statement-breakpoint
CREATE TRIGGER regular_title_genres_delete AFTER DELETE ON regular_titles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION regular_title_genres_delete();
--> statement-breakpoint
CREATE TRIGGER regular_title_genres_update
  AFTER UPDATE OF reg_serial_no, genres, current_price_cents, disc ON regular_titles
  FOR EACH ROW
  WHEN (OLD.reg_serial_no IS DISTINCT FROM NEW.reg_serial_no
        OR OLD.genres IS DISTINCT FROM NEW.genres
        OR OLD.current_price_cents IS DISTINCT FROM NEW.current_price_cents
        OR OLD.disc IS DISTINCT FROM NEW.disc)
  EXECUTE FUNCTION regular_title_genres_update();
--> statement-breakpoint
CREATE TRIGGER regular_title_genres_truncate AFTER TRUNCATE ON regular_titles
  FOR EACH STATEMENT EXECUTE FUNCTION regular_title_genres_truncate();
--> statement-breakpoint
INSERT INTO regular_title_genres (reg_serial_no, genre, current_price_cents, disc)
SELECT t.reg_serial_no, g, t.current_price_cents, t.disc
  FROM regular_titles AS t, regular_title_genres_of(t.genres) AS g;
