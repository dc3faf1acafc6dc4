ALTER TABLE "service_requests" ADD COLUMN "starts_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "uid" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_uid" ON "service_requests" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "service_requests_active_starts_at" ON "service_requests" USING btree ("starts_at") WHERE "service_requests"."cancelled_at" is null;