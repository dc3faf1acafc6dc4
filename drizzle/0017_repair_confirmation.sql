ALTER TABLE "service_requests" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "confirm_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
-- Bookings made before confirmation links existed were all booked at once.
UPDATE "service_requests" SET "confirmed_at" = "created_at";--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_confirm_token" ON "service_requests" USING btree ("confirm_token_hash") WHERE "service_requests"."confirm_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_confirmed_or_held" CHECK ("service_requests"."confirmed_at" is not null or "service_requests"."confirm_by" is not null);