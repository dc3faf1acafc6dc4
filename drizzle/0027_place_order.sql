-- Placing an order in one statement with the release of the account's earlier unpaid orders
-- (one open checkout per account, migration 0015), so a checkout is one round trip and one
-- commit again instead of two of each:
--   1. the account's earlier unpaid orders (all but the one this checkout key placed) become
--      'cancelled', as release_open_checkouts does;
--   2. the order and its items are written, unless this checkout key placed its order already
--      (a replay: nothing is taken, the caller reads that order);
--   3. the stock moves in ONE pass over the titles in the fixed order take_stock locks them in
--      (regular titles by serial, then adult ones): the released orders' copies back and the new
--      order's copies off the shelf, one conditional update per title. Two passes (the release's
--      then the order's) in one transaction could deadlock two checkouts that release what the
--      other orders; one ordered pass cannot.
-- A line that is short raises RR001 with the same detail as take_stock, its copies left counted
-- with what the account's released orders would have given back; that undoes everything,
-- the release included. It answers the new order's id (null for a replay) and the released
-- orders with their payment sessions, whose pages the caller closes.
CREATE FUNCTION place_order(
  p_user text, p_key text, p_name text, p_address text, p_city text, p_state text,
  p_postal_code text, p_phone text, p_email text, p_method text,
  p_subtotal integer, p_shipping integer, p_tax integer, p_total integer,
  p_expires timestamptz, p_now timestamptz,
  p_types text[], p_serials integer[], p_quantities integer[], p_titles text[], p_prices integer[],
  p_birth date
)
RETURNS TABLE (placed_id bigint, released jsonb) LANGUAGE plpgsql AS $$
DECLARE
  released_ids bigint[];
  new_id bigint;
  line record;
  short text;
BEGIN
  PERFORM set_config('shop.status_note', 'Replaced by a newer checkout', true);
  WITH gone AS (
    UPDATE orders AS o SET status = 'cancelled', updated_at = now()
     WHERE o.user_id = p_user AND o.status = 'pending'
       AND o.checkout_key IS DISTINCT FROM p_key
    RETURNING o.id, o.payment_provider, o.payment_session_id
  )
  SELECT coalesce(array_agg(gone.id), '{}'),
         coalesce(jsonb_agg(jsonb_build_object('orderId', gone.id,
                                               'provider', gone.payment_provider,
                                               'sessionId', gone.payment_session_id)), '[]')
    INTO released_ids, released
    FROM gone;
  PERFORM set_config('shop.status_note', '', true);

  -- A replay whose order is there already inserts nothing: an insert that finds its conflict in
  -- the unique index while the first press records its payment session (an update that writes
  -- new index entries) can deadlock with it. A replay arriving while the first press is still
  -- placing waits for it in the insert below, and inserts nothing either.
  PERFORM FROM orders AS o WHERE o.user_id = p_user AND o.checkout_key = p_key;
  IF NOT FOUND THEN
    INSERT INTO orders (user_id, status, checkout_key, shipping_name, shipping_address,
                        shipping_city, shipping_state, shipping_postal_code, shipping_phone,
                        shipping_email, shipping_method, subtotal_cents, shipping_cents,
                        tax_cents, total_cents, payment_expires_at, created_at, updated_at,
                        buyer_date_of_birth)
    VALUES (p_user, 'pending', p_key, p_name, p_address, p_city, p_state, p_postal_code, p_phone,
            p_email, p_method, p_subtotal, p_shipping, p_tax, p_total, p_expires, p_now, p_now,
            p_birth)
    ON CONFLICT (user_id, checkout_key) DO NOTHING
    RETURNING id INTO new_id;
  END IF;
  IF new_id IS NOT NULL THEN
    INSERT INTO order_items (order_id, product_type, product_serial_no, quantity, title,
                             unit_price_cents)
    SELECT new_id, l.t, l.s, l.q, l.title, l.price
      FROM unnest(p_types, p_serials, p_quantities, p_titles, p_prices) AS l(t, s, q, title, price);
  END IF;

  FOR line IN
    SELECT m.t, m.s, sum(m.take)::integer AS take, sum(m.back)::integer AS back, min(m.n) AS n
      FROM (SELECT w.t, w.s, w.q AS take, 0 AS back, w.n
              FROM unnest(p_types, p_serials, p_quantities) WITH ORDINALITY AS w(t, s, q, n)
             WHERE new_id IS NOT NULL
            UNION ALL
            SELECT i.product_type, i.product_serial_no, 0, i.quantity, NULL
              FROM order_items AS i
             WHERE i.order_id = ANY (released_ids)) AS m
     GROUP BY m.t, m.s
     ORDER BY m.t = 'adult', m.s
  LOOP
    IF line.t = 'regular' THEN
      UPDATE regular_titles SET qty_to_list = qty_to_list + line.back - line.take
       WHERE reg_serial_no = line.s AND qty_to_list + line.back >= line.take;
    ELSE
      UPDATE adult_titles SET quantity = quantity + line.back - line.take
       WHERE adult_serial_no = line.s AND quantity + line.back >= line.take;
    END IF;
    IF NOT FOUND AND line.take > 0 THEN
      -- As take_stock: the line that failed is reported short even if stock came back
      -- meanwhile, and the later lines with what is left of each.
      SELECT string_agg(l.t || ':' || l.s || ':' ||
                          CASE WHEN l.n = line.n THEN least(l.left_now, l.q - 1) ELSE l.left_now END,
                        ',' ORDER BY l.n)
        INTO short
        FROM (SELECT w.t, w.s, w.q, w.n,
                     greatest(coalesce(r.qty_to_list, a.quantity, 0) + coalesce(b.back, 0), 0)
                       AS left_now
                FROM unnest(p_types, p_serials, p_quantities) WITH ORDINALITY AS w(t, s, q, n)
                LEFT JOIN regular_titles AS r ON w.t = 'regular' AND r.reg_serial_no = w.s
                LEFT JOIN adult_titles AS a ON w.t = 'adult' AND a.adult_serial_no = w.s
                LEFT JOIN (SELECT i.product_type AS t, i.product_serial_no AS s,
                                  sum(i.quantity)::integer AS back
                             FROM order_items AS i
                            WHERE i.order_id = ANY (released_ids)
                            GROUP BY 1, 2) AS b ON b.t = w.t AND b.s = w.s
               WHERE w.n >= line.n) AS l
       WHERE l.n = line.n OR l.left_now < l.q;
      RAISE EXCEPTION 'not enough stock: %', short USING ERRCODE = 'RR001', DETAIL = short;
    END IF;
  END LOOP;
  placed_id := new_id;
  RETURN NEXT;
END $$;
