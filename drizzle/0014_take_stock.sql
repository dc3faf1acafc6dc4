-- Takes an order's stock off the shelf, every line or none, inside whatever statement or
-- transaction calls it (DESIGN §3.2). Checkout places an order, its items and this reservation in
-- one statement, so a busy shop spends one round trip and one commit per order; a payment that
-- arrives after its order expired takes the stock again the same way.
--
-- The stock rows are first locked in one fixed order (regular before adult, each by serial
-- number, as `mergeOrderLines` sorts them), so orders sharing titles queue instead of
-- deadlocking. Each catalogue is then changed by one UPDATE, so the statement triggers of
-- 0003, 0011 and 0012 run once per order rather than once per line. The condition is part of
-- the UPDATE: stock never goes below zero. A title short of stock (or gone) raises SQLSTATE
-- RR001 with 'regular:<serial>' or 'adult:<serial>' as its detail; the caller's statement or
-- savepoint then rolls back whatever was taken.
CREATE FUNCTION take_stock(p_types text[], p_serials integer[], p_quantities integer[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  short integer;
BEGIN
  IF 'regular' = ANY (p_types) THEN
    PERFORM 1 FROM regular_titles
      WHERE reg_serial_no IN (SELECT l.s FROM unnest(p_types, p_serials) AS l(t, s)
                               WHERE l.t = 'regular')
      ORDER BY reg_serial_no
      FOR NO KEY UPDATE;
    WITH wanted AS (
      SELECT l.s, sum(l.q)::integer AS q
        FROM unnest(p_types, p_serials, p_quantities) AS l(t, s, q)
       WHERE l.t = 'regular'
       GROUP BY l.s
    ), taken AS (
      UPDATE regular_titles AS r SET qty_to_list = r.qty_to_list - w.q
        FROM wanted AS w
       WHERE r.reg_serial_no = w.s AND r.qty_to_list >= w.q
      RETURNING r.reg_serial_no
    )
    SELECT min(w.s) INTO short FROM wanted AS w
     WHERE w.s NOT IN (SELECT reg_serial_no FROM taken);
    IF short IS NOT NULL THEN
      RAISE EXCEPTION 'not enough stock of regular title %', short
        USING ERRCODE = 'RR001', DETAIL = 'regular:' || short;
    END IF;
  END IF;

  IF 'adult' = ANY (p_types) THEN
    PERFORM 1 FROM adult_titles
      WHERE adult_serial_no IN (SELECT l.s FROM unnest(p_types, p_serials) AS l(t, s)
                                 WHERE l.t = 'adult')
      ORDER BY adult_serial_no
      FOR NO KEY UPDATE;
    WITH wanted AS (
      SELECT l.s, sum(l.q)::integer AS q
        FROM unnest(p_types, p_serials, p_quantities) AS l(t, s, q)
       WHERE l.t = 'adult'
       GROUP BY l.s
    ), taken AS (
      UPDATE adult_titles AS a SET quantity = a.quantity - w.q
        FROM wanted AS w
       WHERE a.adult_serial_no = w.s AND a.quantity >= w.q
      RETURNING a.adult_serial_no
    )
    SELECT min(w.s) INTO short FROM wanted AS w
     WHERE w.s NOT IN (SELECT adult_serial_no FROM taken);
    IF short IS NOT NULL THEN
      RAISE EXCEPTION 'not enough stock of adult title %', short
        USING ERRCODE = 'RR001', DETAIL = 'adult:' || short;
    END IF;
  END IF;
END $$;
