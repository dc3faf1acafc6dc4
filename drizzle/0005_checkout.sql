CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"order_id" bigint,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_provider" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_session_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_session_url" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_events_order_id" ON "payment_events" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_checkout_key" ON "orders" USING btree ("user_id","checkout_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_session_id" ON "orders" USING btree ("payment_session_id") WHERE "orders"."payment_session_id" is not null;--> statement-breakpoint
CREATE INDEX "orders_pending_expiry" ON "orders" USING btree ("payment_expires_at") WHERE "orders"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_money_check" CHECK ("orders"."subtotal_cents" >= 0 and "orders"."shipping_cents" >= 0 and "orders"."tax_cents" >= 0 and "orders"."total_cents" = "orders"."subtotal_cents" + "orders"."shipping_cents" + "orders"."tax_cents");--> statement-breakpoint
-- Orders update regular_titles (stock) all the time. The count trigger of 0003 upserted
-- catalogue_counts for every updated row (+1 and -1 for the same disc), which held the shared
-- count rows locked until each order committed: orders queued behind one another and, taking
-- title and count locks in different orders, deadlocked. An UPDATE now touches the counts only
-- when a title's disc changed, and then in a fixed order.
CREATE OR REPLACE FUNCTION regular_titles_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM catalogue_counts_apply('regular', d, n)
      FROM (SELECT disc AS d, count(*) AS n FROM new_rows GROUP BY disc
            UNION ALL SELECT '', count(*) FROM new_rows) AS added
      WHERE n > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM catalogue_counts_apply('regular', d, -n)
      FROM (SELECT disc AS d, count(*) AS n FROM old_rows GROUP BY disc
            UNION ALL SELECT '', count(*) FROM old_rows) AS removed
      WHERE n > 0;
  ELSE
    -- An update never changes the total, only how the rows split over discs.
    PERFORM catalogue_counts_apply('regular', d, n)
      FROM (SELECT d, sum(n)::bigint AS n
              FROM (SELECT disc AS d, count(*) AS n FROM new_rows GROUP BY disc
                    UNION ALL SELECT disc, -count(*) FROM old_rows GROUP BY disc) AS moves
             GROUP BY d) AS net
      WHERE n <> 0
      ORDER BY d;
  END IF;
  RETURN NULL;
END $$;
