ALTER TABLE "counter_sales" DROP CONSTRAINT "counter_sales_status_check";--> statement-breakpoint
ALTER TABLE "stock_moves" DROP CONSTRAINT "stock_moves_reason_check";--> statement-breakpoint
DROP INDEX "counter_sales_open";--> statement-breakpoint
ALTER TABLE "counter_sales" ADD COLUMN "card_cents" integer;--> statement-breakpoint
ALTER TABLE "counter_sales" ADD COLUMN "cash_tendered_cents" integer;--> statement-breakpoint
ALTER TABLE "counter_sales" ADD COLUMN "card_attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "counter_sales" ADD COLUMN "card_reference" text;--> statement-breakpoint
ALTER TABLE "counter_sales" ADD COLUMN "card_message" text;--> statement-breakpoint
CREATE UNIQUE INDEX "counter_sales_open" ON "counter_sales" USING btree ("till_session_id") WHERE "counter_sales"."status" in ('open', 'awaiting_card');--> statement-breakpoint
ALTER TABLE "counter_sales" ADD CONSTRAINT "counter_sales_status_check" CHECK ("counter_sales"."status" in ('open', 'awaiting_card', 'paid', 'voided'));--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_reason_check" CHECK ("stock_moves"."reason" in ('added', 'adjustment', 'import', 'web_sale', 'released', 'cancelled', 'returned', 'counter_sale', 'counter_unpaid', 'counter_return'));