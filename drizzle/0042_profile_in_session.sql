ALTER TABLE "users" ADD COLUMN "profile_first_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "profile_last_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "profile_date_of_birth" date;--> statement-breakpoint
-- The profile's name and birth date are copied onto the account whenever the profile gets them,
-- so reading a session with its user (one statement) tells who is signed in without reading the
-- profile again on every request.
CREATE FUNCTION copy_profile_to_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users
     SET profile_first_name = NEW.first_name,
         profile_last_name = NEW.last_name,
         profile_date_of_birth = NEW.date_of_birth
   WHERE id = NEW.id
     AND (profile_first_name, profile_last_name, profile_date_of_birth)
         IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.date_of_birth);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER customers_copy_profile_to_user
  AFTER INSERT OR UPDATE OF first_name, last_name, date_of_birth ON customers
  FOR EACH ROW EXECUTE FUNCTION copy_profile_to_user();--> statement-breakpoint
UPDATE users AS u
   SET profile_first_name = c.first_name,
       profile_last_name = c.last_name,
       profile_date_of_birth = c.date_of_birth
  FROM customers AS c
 WHERE c.id = u.id;
