-- Takes an order's stock off the shelf, every line or none, inside whatever statement or
-- transaction calls it (DESIGN §3.2). Checkout places an order, its items and this reservation in
-- one statement, so a busy shop spends one round trip and one commit per order; a payment that
-- arrives after its order expired takes the stock again the same way.
--
-- The lines come in one fixed order (regular before adult, each by serial number, as
-- `mergeOrderLines` sorts them), so orders sharing titles lock their rows in the same order and
-- never deadlock. Each line is a conditional UPDATE: stock never goes below zero, and a title
-- already sold out is passed over at once instead of waiting for the orders holding its row.
-- When a line is short, the function raises SQLSTATE RR001 with the short lines as its detail
-- ('regular:12:0,adult:7:2': catalogue, serial number, how many are left — that line, and every
-- later one short as the stock stands), which undoes the caller's statement or savepoint; the
-- shopper is told everything without another look-up.
CREATE FUNCTION take_stock(p_types text[], p_serials integer[], p_quantities integer[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  short text;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_serials, 1), 0) LOOP
    IF p_types[i] = 'regular' THEN
      UPDATE regular_titles SET qty_to_list = qty_to_list - p_quantities[i]
       WHERE reg_serial_no = p_serials[i] AND qty_to_list >= p_quantities[i];
    ELSE
      UPDATE adult_titles SET quantity = quantity - p_quantities[i]
       WHERE adult_serial_no = p_serials[i] AND quantity >= p_quantities[i];
    END IF;
    IF NOT FOUND THEN
      -- The line that failed is reported short even if stock came back meanwhile.
      SELECT string_agg(l.t || ':' || l.s || ':' ||
                          CASE WHEN l.n = i THEN least(l.left_now, l.q - 1) ELSE l.left_now END,
                        ',' ORDER BY l.n)
        INTO short
        FROM (SELECT w.t, w.s, w.q, w.n,
                     greatest(coalesce(r.qty_to_list, a.quantity, 0), 0) AS left_now
                FROM unnest(p_types, p_serials, p_quantities) WITH ORDINALITY AS w(t, s, q, n)
                LEFT JOIN regular_titles AS r ON w.t = 'regular' AND r.reg_serial_no = w.s
                LEFT JOIN adult_titles AS a ON w.t = 'adult' AND a.adult_serial_no = w.s
               WHERE w.n >= i) AS l
       WHERE l.n = i OR l.left_now < l.q;
      RAISE EXCEPTION 'not enough stock: %', short USING ERRCODE = 'RR001', DETAIL = short;
    END IF;
  END LOOP;
END $$;
