-- Releasing an account's earlier unpaid orders on their own (0015, 0030: after a refused
-- checkout) gives their copies back as placing an order now moves stock (0033): each
-- catalogue's rows locked first in the fixed order (regular titles by serial, then adult ones),
-- so it cannot deadlock with a checkout, then one update per catalogue instead of one per title,
-- each table's statement triggers running once.
CREATE OR REPLACE FUNCTION release_open_checkouts(p_user text, p_keep_key text)
RETURNS TABLE (order_id bigint, provider text, session_id text) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  released bigint[] := '{}';
  one record;
  -- The copies going back, one entry per title, as columns.
  b_types text[];
  b_serials integer[];
  b_quantities integer[];
BEGIN
  PERFORM set_config('shop.status_note', 'Replaced by a newer checkout', true);
  FOR one IN
    UPDATE orders AS o SET status = 'cancelled', updated_at = now()
     WHERE o.user_id = p_user AND o.status = 'pending'
       AND o.checkout_key IS DISTINCT FROM p_keep_key
    RETURNING o.id, o.payment_provider, o.payment_session_id
  LOOP
    released := released || one.id;
    order_id := one.id;
    provider := one.payment_provider;
    session_id := one.payment_session_id;
    RETURN NEXT;
  END LOOP;
  PERFORM set_config('shop.status_note', '', true);
  IF cardinality(released) = 0 THEN
    RETURN;
  END IF;
  PERFORM set_config('shop.stock_reason', 'released', true),
          set_config('shop.stock_reference',
                     CASE WHEN cardinality(released) = 1 THEN 'order ' || released[1]
                          ELSE 'orders ' || array_to_string(released, ', ') END, true);
  SELECT coalesce(array_agg(g.t), '{}'), coalesce(array_agg(g.s), '{}'),
         coalesce(array_agg(g.q), '{}')
    INTO b_types, b_serials, b_quantities
    FROM (SELECT i.product_type AS t, i.product_serial_no AS s, sum(i.quantity)::integer AS q
            FROM order_items AS i
           WHERE i.order_id = ANY (released)
           GROUP BY 1, 2) AS g;
  IF 'regular' = ANY (b_types) THEN
    PERFORM FROM (SELECT FROM unnest(b_types, b_serials) AS w(t, s)
                    JOIN regular_titles AS r ON r.reg_serial_no = w.s
                   WHERE w.t = 'regular'
                   ORDER BY w.s
                     FOR UPDATE OF r) AS l;
  END IF;
  IF 'adult' = ANY (b_types) THEN
    PERFORM FROM (SELECT FROM unnest(b_types, b_serials) AS w(t, s)
                    JOIN adult_titles AS a ON a.adult_serial_no = w.s
                   WHERE w.t = 'adult'
                   ORDER BY w.s
                     FOR UPDATE OF a) AS l;
  END IF;
  IF 'regular' = ANY (b_types) THEN
    UPDATE regular_titles AS r SET qty_to_list = r.qty_to_list + w.q
      FROM unnest(b_types, b_serials, b_quantities) AS w(t, s, q)
     WHERE w.t = 'regular' AND r.reg_serial_no = w.s;
  END IF;
  IF 'adult' = ANY (b_types) THEN
    UPDATE adult_titles AS a SET quantity = a.quantity + w.q
      FROM unnest(b_types, b_serials, b_quantities) AS w(t, s, q)
     WHERE w.t = 'adult' AND a.adult_serial_no = w.s;
  END IF;
  PERFORM set_config('shop.stock_reason', '', true), set_config('shop.stock_reference', '', true);
END $$;
