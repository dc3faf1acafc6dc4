ALTER TABLE "repair_tickets" ADD COLUMN "intake_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "repair_tickets_intake_key" ON "repair_tickets" USING btree ("intake_key");