-- The catalogue's statement triggers take time in proportion to the rows a statement changes,
-- whatever plan their queries were given first.
--
-- 1. The search words' counts follow a title's words once per statement, no longer once per
--    row. Counted per row, an import updating 100,000 titles upserted the words every title
--    shares ("the", "a") 100,000 times in its one transaction; each upsert found the word's row
--    at the end of a chain of its own earlier versions, which nothing can prune before the
--    commit, so the import slowed with the square of its size. Now each statement adds its rows'
--    new words and takes away their old ones together, as inserts and deletes already did: a
--    word is written once per statement (per batch of an import). A row counts when its title,
--    director or cast changed; a renumbered row counts out under its old serial and in under its
--    new one, which cancels. An update that changes no words (every order's stock) writes
--    nothing.
--
-- 2. No trigger joins its statement's old rows to its new ones any more. A PL/pgSQL function
--    plans each query once per connection, for the rows of the first statement it sees: on a
--    connection whose first catalogue update was an order's (a few rows) the join of old and new
--    rows was planned as a nested loop, and a later import's batches of 5,000 rows compared every
--    old row with every new one (an import of 100,000 changed titles: 107 s, most of it there).
--    The ledger's moves and the restocked titles are now found by grouping the old and new rows
--    by serial (or intersecting them), which no plan makes quadratic. What they find is the same:
--    rows of a serial present before and after the statement.
DROP TRIGGER regular_titles_search_words_update ON regular_titles;
--> statement-breakpoint
DROP FUNCTION search_words_update();
--> statement-breakpoint
CREATE FUNCTION search_words_count_updates() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_words_apply(jsonb_agg(c))
     FROM (SELECT w.word, sum(d.sign * w.in_title::int) AS titles, sum(d.sign) AS total
             FROM (SELECT sum(b.sign) AS sign, b.title, b.director, b."cast"
                     FROM (SELECT 1 AS sign, n.reg_serial_no, n.title, n.director, n."cast"
                             FROM new_rows AS n
                           UNION ALL
                           SELECT -1, o.reg_serial_no, o.title, o.director, o."cast"
                             FROM old_rows AS o) AS b
                    GROUP BY b.reg_serial_no, b.title, b.director, b."cast"
                   HAVING sum(b.sign) <> 0) AS d,
                  LATERAL title_words(d.title, d.director, d."cast") AS w
            GROUP BY w.word
           HAVING sum(d.sign * w.in_title::int) <> 0 OR sum(d.sign) <> 0) AS c
   HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regular_titles_search_words_update AFTER UPDATE ON regular_titles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION search_words_count_updates();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION regular_titles_restock_alerts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  restocked integer[];
BEGIN
  SELECT array_agg(r.s) INTO restocked
    FROM (SELECT o.reg_serial_no AS s FROM old_rows AS o WHERE o.qty_to_list <= 0
          INTERSECT
          SELECT n.reg_serial_no FROM new_rows AS n WHERE n.qty_to_list > 0) AS r;
  IF restocked IS NULL THEN
    RETURN NULL;
  END IF;
  -- By the waiting alerts' own index, whatever the size of the statement.
  UPDATE stock_alerts
     SET status = 'due', due_at = now()
   WHERE reg_serial_no = ANY (restocked)
     AND kind = 'restock'
     AND status = 'active';
  RETURN NULL;
END $$;
--> statement-breakpoint
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
    SELECT 'regular', m.s, m.change, m.after,
           CASE WHEN 'regular:' || m.s = ANY (released) THEN 'released'
                ELSE coalesce(stock_moves_setting('shop.stock_reason'), 'adjustment') END,
           CASE WHEN 'regular:' || m.s = ANY (released)
                THEN stock_moves_setting('shop.stock_released_reference')
                ELSE stock_moves_setting('shop.stock_reference') END,
           stock_moves_setting('shop.actor_id'), stock_moves_setting('shop.actor_name')
      FROM (SELECT b.s, sum(b.sign * b.q)::int AS change,
                   max(b.q) FILTER (WHERE b.sign = 1) AS after
              FROM (SELECT n.reg_serial_no AS s, n.qty_to_list AS q, 1 AS sign FROM new_rows AS n
                    UNION ALL
                    SELECT o.reg_serial_no, o.qty_to_list, -1 FROM old_rows AS o) AS b
             GROUP BY b.s
            HAVING count(*) = 2 AND sum(b.sign * b.q) <> 0) AS m
     ORDER BY m.s;
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
    SELECT 'adult', m.s, m.change, m.after,
           CASE WHEN 'adult:' || m.s = ANY (released) THEN 'released'
                ELSE coalesce(stock_moves_setting('shop.stock_reason'), 'adjustment') END,
           CASE WHEN 'adult:' || m.s = ANY (released)
                THEN stock_moves_setting('shop.stock_released_reference')
                ELSE stock_moves_setting('shop.stock_reference') END,
           stock_moves_setting('shop.actor_id'), stock_moves_setting('shop.actor_name')
      FROM (SELECT b.s, sum(b.sign * b.q)::int AS change,
                   max(b.q) FILTER (WHERE b.sign = 1) AS after
              FROM (SELECT n.adult_serial_no AS s, n.quantity AS q, 1 AS sign FROM new_rows AS n
                    UNION ALL
                    SELECT o.adult_serial_no, o.quantity, -1 FROM old_rows AS o) AS b
             GROUP BY b.s
            HAVING count(*) = 2 AND sum(b.sign * b.q) <> 0) AS m
     ORDER BY m.s;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION store_items_stock_moves() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'item', n.id, n.stock, n.stock,
           coalesce(stock_moves_setting('shop.stock_reason'), 'added'),
           stock_moves_setting('shop.stock_reference'), stock_moves_setting('shop.actor_id'),
           stock_moves_setting('shop.actor_name')
      FROM new_rows AS n WHERE n.stock <> 0 ORDER BY n.id;
  ELSE
    INSERT INTO stock_moves (product_type, product_id, change, stock_after, reason, reference,
                             actor_id, actor_name)
    SELECT 'item', m.s, m.change, m.after,
           coalesce(stock_moves_setting('shop.stock_reason'), 'adjustment'),
           stock_moves_setting('shop.stock_reference'), stock_moves_setting('shop.actor_id'),
           stock_moves_setting('shop.actor_name')
      FROM (SELECT b.s, sum(b.sign * b.q)::int AS change,
                   max(b.q) FILTER (WHERE b.sign = 1) AS after
              FROM (SELECT n.id AS s, n.stock AS q, 1 AS sign FROM new_rows AS n
                    UNION ALL
                    SELECT o.id, o.stock, -1 FROM old_rows AS o) AS b
             GROUP BY b.s
            HAVING count(*) = 2 AND sum(b.sign * b.q) <> 0) AS m
     ORDER BY m.s;
  END IF;
  RETURN NULL;
END $$;
