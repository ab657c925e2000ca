-- dbrig TPC-C statements, SQL Server (T-SQL; not run here: no SQL Server exists on the test machines. Reviewed against
-- Microsoft's docs: TOP, table hints WITH (UPDLOCK, ROWLOCK), CURRENT_TIMESTAMP).
-- One statement per "-- name:" block; ? marks a parameter. Parameter and column types are
-- fixed in src/workload/tpcc_sql.c and identical for every dialect.

-- === New-Order ===
-- Only the district's S_DIST_xx is read (clause 2.4.2.2: xx = D_ID, the first parameter).
-- name: no_cust_wh
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?;
-- name: no_dist_upd
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?;
-- name: no_dist
SELECT d_next_o_id - 1, d_tax FROM district WHERE d_w_id = ? AND d_id = ?;
-- name: no_ins_order
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, NULL, ?, ?);
-- name: no_ins_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?);
-- name: no_item
SELECT i_price, i_name, i_data FROM item WHERE i_id = ?;
-- name: no_stock
SELECT s_quantity, s_data, CASE ? WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END FROM stock WITH (UPDLOCK, ROWLOCK) WHERE s_i_id = ? AND s_w_id = ?;
-- name: no_stock_upd
UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?;
-- name: no_ins_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?);

-- === Payment ===
-- name: pay_wh_upd
UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?;
-- name: pay_wh
SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?;
-- name: pay_dist_upd
UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?;
-- name: pay_dist
SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?;
-- name: cust_by_name
SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first;
-- name: pay_cust
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- name: pay_cust_upd
UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- name: pay_cust_data
SELECT c_data FROM customer WITH (UPDLOCK, ROWLOCK) WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- name: pay_cust_data_upd
UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- name: pay_ins_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?);

-- === Order-Status ===
-- name: os_cust
SELECT c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- name: os_last_order
SELECT TOP 1 o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC;
-- name: os_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;

-- === Delivery (one district per step group, ten per transaction) ===
-- The oldest new order is read with a lock (as HammerDB and go-tpc do), so concurrent Deliveries
-- of one warehouse queue on it instead of both reading it and one finding it gone.
-- name: dl_oldest_new_order
SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id;
-- name: dl_del_new_order
DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?;
-- name: dl_order
SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?;
-- name: dl_order_upd
UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?;
-- name: dl_lines_upd
UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- name: dl_lines_sum
SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- name: dl_cust_upd
UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;

-- === Stock-Level ===
-- name: sl_dist
SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?;
-- name: sl_count
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ? OPTION (LOOP JOIN, MAXDOP 1);

-- === The procedure mode (--mode=procedures): one call per transaction (sql/mssql/procedures.sql) ===
-- New-Order (w, d, c, ol_cnt, all_local, items, supply warehouses, quantities, line numbers) ->
-- (o_id, rolled_back, total); Payment (w, d, c_w, c_d, c_id, c_last, by_name, amount) -> (c_id,
-- c_balance, c_credit); Order-Status (w, d, c_id, c_last, by_name) -> a row per order line (c_id, o_id, line_count, ol_i_id,
-- ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d), one without a line when there is none;
-- Delivery (w, carrier) -> (delivered, skipped, the ten o_ids, 0 for a skipped district);
-- Stock-Level (w, d, threshold) -> (low stock count).
-- name: pr_neword
EXEC tpcc_neword ?, ?, ?, ?, ?, ?, ?, ?, ?;
-- name: pr_payment
EXEC tpcc_payment ?, ?, ?, ?, ?, ?, ?, ?;
-- name: pr_ostat
EXEC tpcc_ostat ?, ?, ?, ?, ?;
-- name: pr_delivery
EXEC tpcc_delivery ?, ?;
-- name: pr_slev
EXEC tpcc_slev ?, ?, ?;

-- === Loader (parameter arrays through ODBC, multi-row VALUES through libmysqlclient) ===
-- name: ld_item
INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?);
-- name: ld_warehouse
INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_district
INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_customer
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?);
-- O_ENTRY_D and a delivered line's OL_DELIVERY_D are one client time of the load (clause 4.3.3.1:
-- equal), 'YYYY-MM-DDTHH:MM:SS'; an undelivered line's is NULL.
-- name: ld_orders
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?);
-- name: ld_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_stock
INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- name: ld_meta
INSERT INTO tpcc_meta (m_name, m_value) VALUES (?, ?);
-- name: meta_get
SELECT m_name, m_value FROM tpcc_meta;

-- === Consistency conditions of clause 3.3.2, over every row ===
-- Each returns the rows that break the condition and the rows it looked at (then, for
-- condition 2, the districts without new orders: the NEW-ORDER half does not apply to them).
-- Conditions over the same rows share one pass: 5, 6 and 7 (orders, with their new order and
-- their lines' counts: bad 5, bad 6, orders, bad lines for 7, lines), 10 and 12 (customers:
-- bad 10, bad 12, customers).
-- name: chk_1
SELECT COUNT_BIG(CASE WHEN d.s IS NULL OR w.w_ytd <> d.s THEN 1 END), COUNT_BIG(*) FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) AS s FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id;
-- name: chk_2
SELECT COUNT_BIG(CASE WHEN o.m IS NULL OR d.d_next_o_id - 1 <> o.m OR (n.m IS NOT NULL AND d.d_next_o_id - 1 <> n.m) THEN 1 END), COUNT_BIG(*), COUNT_BIG(CASE WHEN n.m IS NULL THEN 1 END) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- name: chk_3
SELECT COUNT_BIG(CASE WHEN x.hi - x.lo + 1 <> x.c THEN 1 END), COUNT_BIG(*) FROM (SELECT MAX(no_o_id) AS hi, MIN(no_o_id) AS lo, COUNT_BIG(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) x;
-- SQL Server refuses an aggregate over an expression that holds a subquery or another aggregate
-- (Msg 130), so every condition aggregates in derived tables joined to the rows it checks.
-- name: chk_4
SELECT COUNT_BIG(CASE WHEN COALESCE(o.s, 0) <> COALESCE(l.c, 0) THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, SUM(CAST(o_ol_cnt AS BIGINT)) AS s FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT_BIG(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id;
-- name: chk_5_7
SELECT COUNT_BIG(CASE WHEN (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL) THEN 1 END), COUNT_BIG(CASE WHEN l.c IS NULL OR l.c <> o.o_ol_cnt THEN 1 END), COUNT_BIG(*), COALESCE(SUM(CASE WHEN o.o_carrier_id IS NULL THEN l.c - l.nd ELSE l.nd END), 0), COALESCE(SUM(l.c), 0) FROM orders o LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT_BIG(*) AS c, COUNT_BIG(CASE WHEN ol_delivery_d IS NULL THEN 1 END) AS nd FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id;
-- name: chk_8
SELECT COUNT_BIG(CASE WHEN h.s IS NULL OR w.w_ytd <> h.s THEN 1 END), COUNT_BIG(*) FROM warehouse w LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id;
-- name: chk_9
SELECT COUNT_BIG(CASE WHEN h.s IS NULL OR d.d_ytd <> h.s THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id;
-- name: chk_10_12
SELECT COUNT_BIG(CASE WHEN c.c_balance <> COALESCE(a.s, 0) - COALESCE(h.s, 0) THEN 1 END), COUNT_BIG(CASE WHEN c.c_balance + c.c_ytd_payment <> COALESCE(a.s, 0) THEN 1 END), COUNT_BIG(*) FROM customer c LEFT JOIN (SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS cid, SUM(l.ol_amount) AS s FROM orders o, order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id AND l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) a ON a.w = c.c_w_id AND a.d = c.c_d_id AND a.cid = c.c_id LEFT JOIN (SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS cid, SUM(h_amount) AS s FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.cid = c.c_id;
-- name: chk_11
SELECT COUNT_BIG(CASE WHEN COALESCE(o.c, 0) - COALESCE(n.c, 0) <> 2100 THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, COUNT_BIG(*) AS c FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, COUNT_BIG(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- Condition 11 holds only until a Delivery runs: the load leaves every order after 2100 undelivered,
-- and Delivery takes the oldest new order (2101 first).
-- name: chk_delivered
SELECT COUNT_BIG(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL;
-- Rows per table (prepare compares them with the scale; check prints them). COUNT_BIG: order_line
-- passes 2^31 rows near 7,000 warehouses.
-- name: chk_rows
SELECT (SELECT COUNT_BIG(*) FROM warehouse), (SELECT COUNT_BIG(*) FROM district), (SELECT COUNT_BIG(*) FROM customer), (SELECT COUNT_BIG(*) FROM orders), (SELECT COUNT_BIG(*) FROM new_order), (SELECT COUNT_BIG(*) FROM item), (SELECT COUNT_BIG(*) FROM stock), (SELECT COUNT_BIG(*) FROM history), (SELECT COUNT_BIG(*) FROM order_line), (SELECT COUNT_BIG(*) FROM tpcc_meta);
-- name: chk_ol_cnt
SELECT COALESCE(SUM(CAST(o_ol_cnt AS BIGINT)), 0) FROM orders;
