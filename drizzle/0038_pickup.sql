ALTER TABLE "orders" ADD COLUMN "fulfilment" text GENERATED ALWAYS AS (case when shipping_method = 'pickup' then 'pickup' else 'ship' end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "pickup_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ready_for_pickup_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_by_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_by_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "collected_id_check_birth_date" date;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_collected_by_id_users_id_fk" FOREIGN KEY ("collected_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_pickup_code" ON "orders" USING btree ("pickup_code") WHERE "orders"."pickup_code" is not null;--> statement-breakpoint
CREATE INDEX "orders_collected_at" ON "orders" USING btree ("collected_at") WHERE "orders"."collected_at" is not null;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_pickup_check" CHECK (("orders"."pickup_code" is null or "orders"."shipping_method" = 'pickup') and ("orders"."collected_at" is null or "orders"."ready_for_pickup_at" is not null));