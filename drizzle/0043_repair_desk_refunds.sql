ALTER TABLE "repair_payments" ADD COLUMN "form_key" text;--> statement-breakpoint
ALTER TABLE "repair_payments" ADD COLUMN "refunded_payment_id" bigint;--> statement-breakpoint
ALTER TABLE "repair_payments" ADD CONSTRAINT "repair_payments_refunded_payment_id_repair_payments_id_fk" FOREIGN KEY ("refunded_payment_id") REFERENCES "public"."repair_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "repair_payments_form_key" ON "repair_payments" USING btree ("form_key",coalesce(refunded_payment_id, 0));--> statement-breakpoint
ALTER TABLE "repair_payments" ADD CONSTRAINT "repair_payments_refund_check" CHECK (("repair_payments"."kind" = 'refund') = ("repair_payments"."refunded_payment_id" is not null)
          and ("repair_payments"."kind" <> 'refund' or "repair_payments"."method" = 'cash' or "repair_payments"."provider_reference" is not null));