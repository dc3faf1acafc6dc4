-- Paying a counter sale in cash (or with an exchange's credit and cash) as one statement
-- (decision 023, point 3): the sale locked, the till open, the ID check, the totals and the tender
-- checked, the stock taken (titles through take_stock in the web's order, then store items by id),
-- the sale paid and its tenders written. One round trip from the shop instead of about fifteen,
-- so a sale at the counter stays quick while the web shop is busy.
--
-- Answers a code: 'paid' (with the change), or why nothing was done ('not-open', 'till-closed',
-- 'empty', 'id-required', 'under-age', 'cash-short', 'cash-not-needed'). Short stock raises
-- RR001 with the products short as take_stock does ('item:<id>:<left>' for a store item), which
-- undoes the statement. The arithmetic is the counter's sale-money.ts (tax once on the taxable
-- lines after their discounts, rounded half up; credit first, then cash with its change), and
-- check:money recomputes every paid sale with it.
CREATE FUNCTION counter_pay_cash(
  p_sale bigint,
  p_cash_tendered integer,
  p_credit integer,
  p_birth_date date,
  p_adult_born_by date,
  p_tax_rate integer,
  p_actor_id text,
  p_actor_name text,
  p_now timestamptz
) RETURNS TABLE (code text, change_cents integer) LANGUAGE plpgsql AS $$
DECLARE
  sale record;
  till_closed timestamptz;
  lines_count integer;
  has_adult boolean;
  subtotal integer;
  discount integer;
  taxable integer;
  tax integer;
  total integer;
  credit integer;
  cash_due integer;
  titles record;
  item record;
  left_now integer;
BEGIN
  SELECT s.id, s.till_session_id INTO sale
    FROM counter_sales AS s WHERE s.id = p_sale AND s.status = 'open' FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'not-open'::text, 0; RETURN;
  END IF;
  SELECT t.closed_at INTO till_closed
    FROM till_sessions AS t WHERE t.id = sale.till_session_id FOR SHARE;
  IF till_closed IS NOT NULL THEN
    RETURN QUERY SELECT 'till-closed'::text, 0; RETURN;
  END IF;
  SELECT count(*)::integer,
         coalesce(bool_or(l.product_type = 'adult'), false),
         coalesce(sum(l.unit_price_cents * l.quantity), 0)::integer,
         coalesce(sum(l.discount_cents), 0)::integer,
         coalesce(sum(l.unit_price_cents * l.quantity - l.discount_cents)
                    FILTER (WHERE l.taxable), 0)::integer
    INTO lines_count, has_adult, subtotal, discount, taxable
    FROM counter_sale_lines AS l WHERE l.sale_id = p_sale;
  IF lines_count = 0 THEN
    RETURN QUERY SELECT 'empty'::text, 0; RETURN;
  END IF;
  IF has_adult AND p_birth_date IS NULL THEN
    RETURN QUERY SELECT 'id-required'::text, 0; RETURN;
  END IF;
  IF has_adult AND p_birth_date > p_adult_born_by THEN
    RETURN QUERY SELECT 'under-age'::text, 0; RETURN;
  END IF;
  tax := CASE WHEN taxable <= 0 OR p_tax_rate <= 0 THEN 0
              ELSE ((taxable::bigint * p_tax_rate + 500000) / 1000000)::integer END;
  total := subtotal - discount + tax;
  credit := least(greatest(p_credit, 0), total);
  cash_due := total - credit;
  IF p_cash_tendered < cash_due THEN
    RETURN QUERY SELECT 'cash-short'::text, 0; RETURN;
  END IF;
  IF cash_due = 0 AND p_cash_tendered > 0 THEN
    RETURN QUERY SELECT 'cash-not-needed'::text, 0; RETURN;
  END IF;

  PERFORM set_config('shop.actor_id', coalesce(p_actor_id, ''), true),
          set_config('shop.actor_name', coalesce(p_actor_name, ''), true),
          set_config('shop.status_note', '', true),
          set_config('shop.stock_reason', 'counter_sale', true),
          set_config('shop.stock_reference', 'sale S-' || p_sale, true);
  -- The titles in the web's fixed order (regular, then adult, each by serial), so a sale and a
  -- web order taking the same titles cannot deadlock.
  SELECT array_agg(l.product_type ORDER BY l.product_type = 'adult', l.product_id) AS types,
         array_agg(l.product_id ORDER BY l.product_type = 'adult', l.product_id) AS ids,
         array_agg(l.quantity ORDER BY l.product_type = 'adult', l.product_id) AS quantities
    INTO titles
    FROM counter_sale_lines AS l WHERE l.sale_id = p_sale AND l.product_type <> 'item';
  IF titles.ids IS NOT NULL THEN
    PERFORM take_stock(titles.types, titles.ids, titles.quantities);
  END IF;
  FOR item IN
    SELECT l.product_id, l.quantity FROM counter_sale_lines AS l
     WHERE l.sale_id = p_sale AND l.product_type = 'item' ORDER BY l.product_id
  LOOP
    UPDATE store_items SET stock = stock - item.quantity, updated_at = p_now
     WHERE id = item.product_id AND stock >= item.quantity;
    IF NOT FOUND THEN
      SELECT greatest(coalesce(max(s.stock), 0), 0) INTO left_now
        FROM store_items AS s WHERE s.id = item.product_id;
      RAISE EXCEPTION 'not enough stock: item:%:%', item.product_id, left_now
        USING ERRCODE = 'RR001', DETAIL = 'item:' || item.product_id || ':' || left_now;
    END IF;
  END LOOP;

  UPDATE counter_sales
     SET status = 'paid', subtotal_cents = subtotal, discount_cents = discount, tax_cents = tax,
         total_cents = total, tax_rate = p_tax_rate,
         id_check_birth_date = CASE WHEN has_adult THEN p_birth_date END, paid_at = p_now
   WHERE id = p_sale;
  INSERT INTO counter_payments (sale_id, till_session_id, method, amount_cents, tendered_cents,
                                change_cents)
  SELECT p_sale, sale.till_session_id, v.method, v.amount, v.tendered, v.change
    FROM (VALUES ('credit', credit, NULL::integer, NULL::integer),
                 ('cash', cash_due, p_cash_tendered, p_cash_tendered - cash_due))
         AS v(method, amount, tendered, change)
   WHERE v.amount > 0;
  PERFORM set_config('shop.stock_reason', '', true), set_config('shop.stock_reference', '', true);
  RETURN QUERY SELECT 'paid'::text, p_cash_tendered - cash_due;
END $$;
