-- The ledger (0030) names a statement's stock moves by its transaction's reason. A statement that
-- gives some titles back while it takes others (placing an order that releases the account's
-- earlier one) names the titles it only gives back too, so that one statement can move them all:
-- 'shop.stock_released' ('regular:12,adult:7', as a shortage's detail names titles) and
-- 'shop.stock_released_reference'. Their rows are releases; every other row keeps the reason.
CREATE OR REPLACE FUNCTION regular_titles_stock_moves() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  released text[] := string_to_array(stock_moves_setting('shop.stock_released'), ',');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'regular', n.reg_serial_no, n.qty_to_list, n.qty_to_list,
           coalesce(stock_moves_setting('shop.stock_reason'), 'added'),
           stock_moves_setting('shop.stock_reference'), stock_moves_setting('shop.actor_id'),
           stock_moves_setting('shop.actor_name')
      FROM new_rows AS n WHERE n.qty_to_list <> 0 ORDER BY n.reg_serial_no;
  ELSE
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'regular', n.reg_serial_no, n.qty_to_list - o.qty_to_list, n.qty_to_list,
           CASE WHEN 'regular:' || n.reg_serial_no = ANY (released) THEN 'released'
                ELSE coalesce(stock_moves_setting('shop.stock_reason'), 'adjustment') END,
           CASE WHEN 'regular:' || n.reg_serial_no = ANY (released)
                THEN stock_moves_setting('shop.stock_released_reference')
                ELSE stock_moves_setting('shop.stock_reference') END,
           stock_moves_setting('shop.actor_id'), stock_moves_setting('shop.actor_name')
      FROM new_rows AS n JOIN old_rows AS o USING (reg_serial_no)
     WHERE n.qty_to_list <> o.qty_to_list ORDER BY n.reg_serial_no;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION adult_titles_stock_moves() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  released text[] := string_to_array(stock_moves_setting('shop.stock_released'), ',');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'adult', n.adult_serial_no, n.quantity, n.quantity,
           coalesce(stock_moves_setting('shop.stock_reason'), 'added'),
           stock_moves_setting('shop.stock_reference'), stock_moves_setting('shop.actor_id'),
           stock_moves_setting('shop.actor_name')
      FROM new_rows AS n WHERE n.quantity <> 0 ORDER BY n.adult_serial_no;
  ELSE
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'adult', n.adult_serial_no, n.quantity - o.quantity, n.quantity,
           CASE WHEN 'adult:' || n.adult_serial_no = ANY (released) THEN 'released'
                ELSE coalesce(stock_moves_setting('shop.stock_reason'), 'adjustment') END,
           CASE WHEN 'adult:' || n.adult_serial_no = ANY (released)
                THEN stock_moves_setting('shop.stock_released_reference')
                ELSE stock_moves_setting('shop.stock_reference') END,
           stock_moves_setting('shop.actor_id'), stock_moves_setting('shop.actor_name')
      FROM new_rows AS n JOIN old_rows AS o USING (adult_serial_no)
     WHERE n.quantity <> o.quantity ORDER BY n.adult_serial_no;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Placing an order (0027, 0030) moved stock with one conditional update per title, and every
-- update of a title table runs that table's statement triggers (the page cache's, the counts',
-- the restock alerts', the ledger's): an order of N titles ran 4N of them. Now each catalogue's
-- stock moves in one update, whatever the number of titles:
--   1. each catalogue's rows are locked first, in the same fixed order as before (regular titles
--      by serial, then adult ones; `select … order by … for update`), so two checkouts still
--      cannot deadlock, and the updates after it wait on no one;
--   2. the lock passes over a title the stock as it stands cannot serve (its copies plus what the
--      released orders give back, below what this order takes), as the conditional update did:
--      a title already sold out is passed over at once, not after the orders holding its row;
--      a row another checkout changed meanwhile is judged again as that checkout left it;
--   3. a line passed over raises RR001 with the same detail as before (the first short line in
--      that order, and every later one short as the stock stands), before anything is updated:
--      a refusal runs no trigger; a short regular line is found before any adult row is locked;
--   4. one update per catalogue, its condition kept (never below zero), names the new order's
--      lines a web sale and the titles only given back a release, for the ledger.
-- Its statements are planned once per connection (plan_cache_mode): PostgreSQL planned each of
-- them again on every call, its arrays' lengths making a plan of its own look cheaper, and that
-- planning cost more than running them. Each reaches the rows it needs by their keys whatever
-- the arrays hold (an order has at most 50 lines).
CREATE OR REPLACE FUNCTION place_order(
  p_user text, p_key text, p_name text, p_address text, p_city text, p_state text,
  p_postal_code text, p_phone text, p_email text, p_method text,
  p_subtotal integer, p_shipping integer, p_tax integer, p_total integer,
  p_expires timestamptz, p_now timestamptz,
  p_types text[], p_serials integer[], p_quantities integer[], p_titles text[], p_prices integer[],
  p_birth date
)
RETURNS TABLE (placed_id bigint, released jsonb) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  released_ids bigint[];
  new_id bigint;
  -- The titles this statement moves, one each, as columns: the catalogue, the serial number,
  -- the copies the new order takes and the released orders give back, and the line's place in
  -- the order (null for a title only given back); and those only given back, as the ledger
  -- names them ('regular:12,adult:7').
  m_types text[];
  m_serials integer[];
  m_takes integer[];
  m_backs integer[];
  m_lines integer[];
  given_back text;
  kind text;
  locked integer[];
  locked_regular integer[] := '{}';
  locked_adult integer[] := '{}';
  short_line integer;
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

  SELECT coalesce(array_agg(g.t), '{}'), coalesce(array_agg(g.s), '{}'),
         coalesce(array_agg(g.take), '{}'), coalesce(array_agg(g.back), '{}'),
         coalesce(array_agg(g.n), '{}'),
         coalesce(string_agg(g.t || ':' || g.s, ',') FILTER (WHERE g.take = 0), '')
    INTO m_types, m_serials, m_takes, m_backs, m_lines, given_back
    FROM (SELECT m.t, m.s, sum(m.take)::integer AS take, sum(m.back)::integer AS back,
                 min(m.n)::integer AS n
            FROM (SELECT w.t, w.s, w.q AS take, 0 AS back, w.n
                    FROM unnest(p_types, p_serials, p_quantities) WITH ORDINALITY AS w(t, s, q, n)
                   WHERE new_id IS NOT NULL
                  UNION ALL
                  SELECT i.product_type, i.product_serial_no, 0, i.quantity, NULL
                    FROM order_items AS i
                   WHERE i.order_id = ANY (released_ids)) AS m
           GROUP BY m.t, m.s) AS g;

  FOREACH kind IN ARRAY ARRAY['regular', 'adult'] LOOP
    CONTINUE WHEN NOT kind = ANY (m_types);
    -- The rows it can serve, locked, and the first line (in that order) it cannot.
    IF kind = 'regular' THEN
      WITH l AS (
        SELECT w.s
          FROM unnest(m_types, m_serials, m_takes, m_backs) AS w(t, s, take, back)
          JOIN regular_titles AS r ON r.reg_serial_no = w.s
         WHERE w.t = 'regular' AND r.qty_to_list + w.back >= w.take
         ORDER BY w.s
           FOR UPDATE OF r
      )
      SELECT coalesce((SELECT array_agg(l.s) FROM l), '{}'),
             (SELECT w.n FROM unnest(m_types, m_serials, m_takes, m_lines) AS w(t, s, take, n)
               WHERE w.t = 'regular' AND w.take > 0 AND w.s NOT IN (SELECT l.s FROM l)
               ORDER BY w.s LIMIT 1)
        INTO locked, short_line;
      locked_regular := locked;
    ELSE
      WITH l AS (
        SELECT w.s
          FROM unnest(m_types, m_serials, m_takes, m_backs) AS w(t, s, take, back)
          JOIN adult_titles AS a ON a.adult_serial_no = w.s
         WHERE w.t = 'adult' AND a.quantity + w.back >= w.take
         ORDER BY w.s
           FOR UPDATE OF a
      )
      SELECT coalesce((SELECT array_agg(l.s) FROM l), '{}'),
             (SELECT w.n FROM unnest(m_types, m_serials, m_takes, m_lines) AS w(t, s, take, n)
               WHERE w.t = 'adult' AND w.take > 0 AND w.s NOT IN (SELECT l.s FROM l)
               ORDER BY w.s LIMIT 1)
        INTO locked, short_line;
      locked_adult := locked;
    END IF;
    IF short_line IS NOT NULL THEN
      -- As take_stock: the line that failed is reported short even if stock came back
      -- meanwhile, and the later lines with what is left of each.
      SELECT string_agg(l.t || ':' || l.s || ':' ||
                          CASE WHEN l.n = short_line THEN least(l.left_now, l.q - 1)
                               ELSE l.left_now END,
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
               WHERE w.n >= short_line) AS l
       WHERE l.n = short_line OR l.left_now < l.q;
      RAISE EXCEPTION 'not enough stock: %', short USING ERRCODE = 'RR001', DETAIL = short;
    END IF;
  END LOOP;

  -- The ledger's reasons (0030, above): the lines this order takes are a web sale (of the
  -- difference, when a released order gave some back in the same update), the titles only given
  -- back a release.
  PERFORM set_config('shop.stock_reason', 'web_sale', true),
          set_config('shop.stock_reference', coalesce('order ' || new_id, ''), true),
          set_config('shop.stock_released', given_back, true),
          set_config('shop.stock_released_reference',
                     CASE cardinality(released_ids) WHEN 0 THEN ''
                                                    WHEN 1 THEN 'order ' || released_ids[1]
                          ELSE 'orders ' || array_to_string(released_ids, ', ') END, true);
  IF cardinality(locked_regular) > 0 THEN
    UPDATE regular_titles AS r SET qty_to_list = r.qty_to_list + w.back - w.take
      FROM unnest(m_types, m_serials, m_takes, m_backs) AS w(t, s, take, back)
     WHERE w.t = 'regular' AND r.reg_serial_no = w.s AND w.s = ANY (locked_regular)
       AND r.qty_to_list + w.back >= w.take;
  END IF;
  IF cardinality(locked_adult) > 0 THEN
    UPDATE adult_titles AS a SET quantity = a.quantity + w.back - w.take
      FROM unnest(m_types, m_serials, m_takes, m_backs) AS w(t, s, take, back)
     WHERE w.t = 'adult' AND a.adult_serial_no = w.s AND w.s = ANY (locked_adult)
       AND a.quantity + w.back >= w.take;
  END IF;
  PERFORM set_config('shop.stock_reason', '', true), set_config('shop.stock_reference', '', true),
          set_config('shop.stock_released', '', true),
          set_config('shop.stock_released_reference', '', true);
  placed_id := new_id;
  RETURN NEXT;
END $$;
