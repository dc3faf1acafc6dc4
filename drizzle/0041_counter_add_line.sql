-- A scanned product added to the till's open sale as one statement (decision 023, point 3), like
-- counter_pay_cash (0040): the till checked, the open sale found (or started for the clerk) and
-- locked, the line's new quantity checked against the copies the shop read a moment before and
-- the per-line limit, then the line written (one more of it when it is there already). A refusal
-- writes nothing. Answers a code: 'added' with the sale and the line's quantity, or
-- 'till-closed', 'awaiting-card' (the sale is with the card reader), 'short' or 'too-many'.
CREATE FUNCTION counter_add_line(
  p_till integer,
  p_type text,
  p_product integer,
  p_name text,
  p_price integer,
  p_taxable boolean,
  p_stock integer,
  p_quantity integer,
  p_max integer,
  p_clerk_id text,
  p_clerk_name text
) RETURNS TABLE (code text, sale_id bigint, quantity integer) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  till_closed timestamptz;
  sale record;
  had integer;
  now_quantity integer;
BEGIN
  SELECT t.closed_at INTO till_closed FROM till_sessions AS t WHERE t.id = p_till FOR SHARE;
  IF NOT FOUND OR till_closed IS NOT NULL THEN
    RETURN QUERY SELECT 'till-closed'::text, NULL::bigint, 0; RETURN;
  END IF;
  SELECT s.id, s.status INTO sale
    FROM counter_sales AS s
   WHERE s.till_session_id = p_till AND s.status IN ('open', 'awaiting_card')
     FOR UPDATE;
  IF FOUND AND sale.status <> 'open' THEN
    RETURN QUERY SELECT 'awaiting-card'::text, sale.id, 0; RETURN;
  END IF;
  had := 0;
  IF FOUND THEN
    SELECT l.quantity INTO had FROM counter_sale_lines AS l
     WHERE l.sale_id = sale.id AND l.product_type = p_type AND l.product_id = p_product;
    had := coalesce(had, 0);
  END IF;
  now_quantity := had + p_quantity;
  IF now_quantity > p_stock THEN
    RETURN QUERY SELECT 'short'::text, sale.id, had; RETURN;
  END IF;
  IF now_quantity > p_max THEN
    RETURN QUERY SELECT 'too-many'::text, sale.id, had; RETURN;
  END IF;
  IF sale.id IS NULL THEN
    -- Two scans at once at a till with no sale: the second finds the first's.
    INSERT INTO counter_sales (till_session_id, clerk_id, clerk_name)
    VALUES (p_till, p_clerk_id, p_clerk_name)
    ON CONFLICT (till_session_id) WHERE status IN ('open', 'awaiting_card') DO NOTHING
    RETURNING id, status INTO sale;
    IF sale.id IS NULL THEN
      SELECT s.id, s.status INTO sale FROM counter_sales AS s
       WHERE s.till_session_id = p_till AND s.status IN ('open', 'awaiting_card') FOR UPDATE;
    END IF;
  END IF;
  INSERT INTO counter_sale_lines (sale_id, product_type, product_id, name, quantity,
                                  unit_price_cents, taxable)
  VALUES (sale.id, p_type, p_product, p_name, p_quantity, p_price, p_taxable)
  ON CONFLICT (sale_id, product_type, product_id)
  DO UPDATE SET quantity = counter_sale_lines.quantity + excluded.quantity
  RETURNING counter_sale_lines.quantity INTO now_quantity;
  RETURN QUERY SELECT 'added'::text, sale.id, now_quantity;
END $$;
