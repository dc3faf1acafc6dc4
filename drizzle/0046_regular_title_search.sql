-- What a shopper's search matches of each regular title, alone, for the full search (app/db/
-- schema.ts says why): filled from the catalogue before its key and indexes are made, then kept
-- by the triggers below.
CREATE TABLE "regular_title_search" (
	"reg_serial_no" integer PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"director" text,
	"cast" text
);
--> statement-breakpoint
-- No title is added or changed between the copy and its triggers (an older process still serving
-- during a rolling deploy): writes wait for the migration's commit, about 10 s at a million titles.
LOCK TABLE "regular_titles" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "regular_title_search" ("reg_serial_no", "title", "director", "cast")
SELECT "reg_serial_no", "title", "director", "cast" FROM "regular_titles";
--> statement-breakpoint
ALTER TABLE "regular_title_search" ADD CONSTRAINT "regular_title_search_reg_serial_no_regular_titles_reg_serial_no_fk" FOREIGN KEY ("reg_serial_no") REFERENCES "public"."regular_titles"("reg_serial_no") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "regular_title_search_title_trgm" ON "regular_title_search" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "regular_title_search_shopper_trgm" ON "regular_title_search" USING gin (("title" || chr(31) || coalesce("director", '') || chr(31) || coalesce("cast", '')) gin_trgm_ops);
--> statement-breakpoint
-- Titles added by one statement (an import writes thousands at once), together. Deleted titles
-- and changed serial numbers follow through the foreign key; a TRUNCATE of regular_titles must
-- cascade already (other tables refer to it).
CREATE FUNCTION regular_title_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO regular_title_search (reg_serial_no, title, director, "cast")
  SELECT reg_serial_no, title, director, "cast" FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_insert AFTER INSERT ON regular_titles
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION regular_title_search_insert();
--> statement-breakpoint
-- A title, director or cast changed (an edit, or an import updating the title). Only an update
-- that sets one of them fires it, so the stock changes of every order never do.
CREATE FUNCTION regular_title_search_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE regular_title_search
     SET title = NEW.title, director = NEW.director, "cast" = NEW."cast"
   WHERE reg_serial_no = NEW.reg_serial_no;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_update AFTER UPDATE OF title, director, "cast" ON regular_titles
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title
                     OR OLD.director IS DISTINCT FROM NEW.director
                     OR OLD."cast" IS DISTINCT FROM NEW."cast")
  EXECUTE FUNCTION regular_title_search_update();
