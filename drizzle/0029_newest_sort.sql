DROP INDEX "regular_titles_newest_sort";--> statement-breakpoint
CREATE INDEX "regular_titles_newest_sort" ON "regular_titles" USING btree (coalesce("release_year", 0),"reg_serial_no","release_year");