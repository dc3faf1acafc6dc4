ALTER TABLE "repair_ticket_events" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "repair_tickets" ADD COLUMN "paid_difference_reason" text;--> statement-breakpoint
-- A correction of what was typed at intake is written to the ticket's history by the database,
-- as status changes are (migration 0018): one row naming who corrected it (set_config
-- 'shop.actor_id' / 'shop.actor_name', and 'shop.status_note' for why), with each changed field's
-- value before and after. An update that changes none of them writes nothing.
CREATE OR REPLACE FUNCTION repair_tickets_record_correction() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_object('field', f.name, 'from', f.old, 'to', f.new) ORDER BY f.position)
  INTO changes
  FROM (VALUES
    (1, 'customer_name', OLD.customer_name, NEW.customer_name),
    (2, 'customer_email', OLD.customer_email, NEW.customer_email),
    (3, 'customer_phone', OLD.customer_phone, NEW.customer_phone),
    (4, 'service_type', OLD.service_type, NEW.service_type),
    (5, 'device_kind', OLD.device_kind, NEW.device_kind),
    (6, 'device_brand', OLD.device_brand, NEW.device_brand),
    (7, 'device_model', OLD.device_model, NEW.device_model),
    (8, 'device_serial', OLD.device_serial, NEW.device_serial),
    (9, 'problem', OLD.problem, NEW.problem),
    (10, 'condition_at_intake', OLD.condition_at_intake, NEW.condition_at_intake),
    (11, 'accessories', OLD.accessories, NEW.accessories),
    (12, 'promised_date', OLD.promised_date::text, NEW.promised_date::text)
  ) AS f(position, name, old, new)
  WHERE f.old IS DISTINCT FROM f.new;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO repair_ticket_events (ticket_number, from_status, to_status, actor_id, actor_name, note, changes)
  VALUES (
    NEW.number,
    OLD.status,
    NEW.status,
    nullif(current_setting('shop.actor_id', true), ''),
    nullif(current_setting('shop.actor_name', true), ''),
    nullif(current_setting('shop.status_note', true), ''),
    changes
  );
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER repair_tickets_correction_history
  AFTER UPDATE OF customer_name, customer_email, customer_phone, service_type, device_kind,
    device_brand, device_model, device_serial, problem, condition_at_intake, accessories,
    promised_date ON repair_tickets
  FOR EACH ROW EXECUTE FUNCTION repair_tickets_record_correction();
