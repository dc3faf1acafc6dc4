-- Takes an order's stock off the shelf, every line or none, inside whatever statement or
-- transaction calls it (DESIGN §3.2). Checkout places an order, its items and this reservation in
-- one statement, so a busy shop spends one round trip and one commit per order; a payment that
-- arrives after its order expired takes the stock again the same way.
--
-- The stock rows are first locked in one fixed order (regular before adult, each by serial
-- number, as `mergeOrderLines` sorts them), so orders sharing titles queue instead of
-- deadlocking. With the rows locked, every short line is found at once; if there is any, the
-- function raises SQLSTATE RR001 with the short lines as its detail ('regular:12:0,adult:7:2':
-- catalogue, serial number, how many are left), which undoes the caller's statement or
-- savepoint and tells the shopper everything without another look-up. Otherwise each catalogue
-- is changed by one UPDATE, so the statement triggers of 0003, 0011 and 0012 run once per order
-- rather than once per line; its condition keeps stock from ever going below zero.
CREATE FUNCTION take_stock(p_types text[], p_serials integer[], p_quantities integer[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  short text;
  taken integer;
BEGIN
  IF 'regular' = ANY (p_types) THEN
    PERFORM 1 FROM regular_titles
      WHERE reg_serial_no = ANY (SELECT l.s FROM unnest(p_types, p_serials) AS l(t, s)
                                  WHERE l.t = 'regular')
      ORDER BY reg_serial_no
      FOR NO KEY UPDATE;
  END IF;
  IF 'adult' = ANY (p_types) THEN
    PERFORM 1 FROM adult_titles
      WHERE adult_serial_no = ANY (SELECT l.s FROM unnest(p_types, p_serials) AS l(t, s)
                                    WHERE l.t = 'adult')
      ORDER BY adult_serial_no
      FOR NO KEY UPDATE;
  END IF;

  SELECT string_agg(w.t || ':' || w.s || ':' || greatest(coalesce(r.qty_to_list, a.quantity, 0), 0),
                    ',' ORDER BY w.t = 'adult', w.s)
    INTO short
    FROM (SELECT l.t, l.s, sum(l.q) AS q
            FROM unnest(p_types, p_serials, p_quantities) AS l(t, s, q)
           GROUP BY l.t, l.s) AS w
    LEFT JOIN regular_titles AS r ON w.t = 'regular' AND r.reg_serial_no = w.s
    LEFT JOIN adult_titles AS a ON w.t = 'adult' AND a.adult_serial_no = w.s
   WHERE coalesce(r.qty_to_list, a.quantity, 0) < w.q;
  IF short IS NOT NULL THEN
    RAISE EXCEPTION 'not enough stock: %', short USING ERRCODE = 'RR001', DETAIL = short;
  END IF;

  IF 'regular' = ANY (p_types) THEN
    UPDATE regular_titles AS r SET qty_to_list = r.qty_to_list - w.q
      FROM (SELECT l.s, sum(l.q) AS q
              FROM unnest(p_types, p_serials, p_quantities) AS l(t, s, q)
             WHERE l.t = 'regular'
             GROUP BY l.s) AS w
     WHERE r.reg_serial_no = w.s AND r.qty_to_list >= w.q;
    GET DIAGNOSTICS taken = ROW_COUNT;
    IF taken <> (SELECT count(DISTINCT l.s) FROM unnest(p_types, p_serials) AS l(t, s)
                  WHERE l.t = 'regular') THEN
      RAISE EXCEPTION 'stock of a locked regular title changed' USING ERRCODE = 'XX000';
    END IF;
  END IF;
  IF 'adult' = ANY (p_types) THEN
    UPDATE adult_titles AS a SET quantity = a.quantity - w.q
      FROM (SELECT l.s, sum(l.q) AS q
              FROM unnest(p_types, p_serials, p_quantities) AS l(t, s, q)
             WHERE l.t = 'adult'
             GROUP BY l.s) AS w
     WHERE a.adult_serial_no = w.s AND a.quantity >= w.q;
    GET DIAGNOSTICS taken = ROW_COUNT;
    IF taken <> (SELECT count(DISTINCT l.s) FROM unnest(p_types, p_serials) AS l(t, s)
                  WHERE l.t = 'adult') THEN
      RAISE EXCEPTION 'stock of a locked adult title changed' USING ERRCODE = 'XX000';
    END IF;
  END IF;
END $$;
