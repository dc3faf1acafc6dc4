ALTER TABLE "returns" ADD COLUMN "postage_promised_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Returns asked for before promises were kept: a refunded one was promised what it was paid; an
-- open one sent by mail the default contribution within its order's shipping (the refund keeps
-- every return's postage within the shipping not yet given back).
UPDATE "returns" SET "postage_promised_cents" = coalesce("refund_postage_cents", 0) WHERE "status" = 'refunded' AND "method" = 'mail';--> statement-breakpoint
UPDATE "returns" r SET "postage_promised_cents" = least(600, o."shipping_cents") FROM "orders" o WHERE o."id" = r."order_id" AND r."status" IN ('requested', 'received') AND r."method" = 'mail';--> statement-breakpoint
ALTER TABLE "returns" ADD CONSTRAINT "returns_postage_promised_check" CHECK ("returns"."postage_promised_cents" >= 0 and ("returns"."method" = 'mail' or "returns"."postage_promised_cents" = 0));
