-- dbrig TPC-C, dialect postgresql: schema (sql/postgresql/schema.sql)

CREATE TABLE warehouse (
  w_id INTEGER NOT NULL,
  w_name VARCHAR(10),
  w_street_1 VARCHAR(20),
  w_street_2 VARCHAR(20),
  w_city VARCHAR(20),
  w_state CHAR(2),
  w_zip CHAR(9),
  w_tax DECIMAL(4,4),
  w_ytd DECIMAL(12,2)
);

CREATE TABLE district (
  d_id INTEGER NOT NULL,
  d_w_id INTEGER NOT NULL,
  d_name VARCHAR(10),
  d_street_1 VARCHAR(20),
  d_street_2 VARCHAR(20),
  d_city VARCHAR(20),
  d_state CHAR(2),
  d_zip CHAR(9),
  d_tax DECIMAL(4,4),
  d_ytd DECIMAL(12,2),
  d_next_o_id INTEGER
);

CREATE TABLE customer (
  c_id INTEGER NOT NULL,
  c_d_id INTEGER NOT NULL,
  c_w_id INTEGER NOT NULL,
  c_first VARCHAR(16),
  c_middle CHAR(2),
  c_last VARCHAR(16),
  c_street_1 VARCHAR(20),
  c_street_2 VARCHAR(20),
  c_city VARCHAR(20),
  c_state CHAR(2),
  c_zip CHAR(9),
  c_phone CHAR(16),
  c_since TIMESTAMP,
  c_credit CHAR(2),
  c_credit_lim DECIMAL(12,2),
  c_discount DECIMAL(4,4),
  c_balance DECIMAL(12,2),
  c_ytd_payment DECIMAL(12,2),
  c_payment_cnt INTEGER,
  c_delivery_cnt INTEGER,
  c_data VARCHAR(500)
);

CREATE TABLE history (
  h_c_id INTEGER,
  h_c_d_id INTEGER,
  h_c_w_id INTEGER,
  h_d_id INTEGER,
  h_w_id INTEGER,
  h_date TIMESTAMP,
  h_amount DECIMAL(6,2),
  h_data VARCHAR(24)
);

CREATE TABLE new_order (
  no_o_id INTEGER NOT NULL,
  no_d_id INTEGER NOT NULL,
  no_w_id INTEGER NOT NULL
);

CREATE TABLE orders (
  o_id INTEGER NOT NULL,
  o_d_id INTEGER NOT NULL,
  o_w_id INTEGER NOT NULL,
  o_c_id INTEGER,
  o_entry_d TIMESTAMP,
  o_carrier_id INTEGER,
  o_ol_cnt INTEGER,
  o_all_local INTEGER
);

CREATE TABLE order_line (
  ol_o_id INTEGER NOT NULL,
  ol_d_id INTEGER NOT NULL,
  ol_w_id INTEGER NOT NULL,
  ol_number INTEGER NOT NULL,
  ol_i_id INTEGER,
  ol_supply_w_id INTEGER,
  ol_delivery_d TIMESTAMP,
  ol_quantity INTEGER,
  ol_amount DECIMAL(6,2),
  ol_dist_info CHAR(24)
);

CREATE TABLE item (
  i_id INTEGER NOT NULL,
  i_im_id INTEGER,
  i_name VARCHAR(24),
  i_price DECIMAL(5,2),
  i_data VARCHAR(50)
);

CREATE TABLE stock (
  s_i_id INTEGER NOT NULL,
  s_w_id INTEGER NOT NULL,
  s_quantity INTEGER,
  s_dist_01 CHAR(24),
  s_dist_02 CHAR(24),
  s_dist_03 CHAR(24),
  s_dist_04 CHAR(24),
  s_dist_05 CHAR(24),
  s_dist_06 CHAR(24),
  s_dist_07 CHAR(24),
  s_dist_08 CHAR(24),
  s_dist_09 CHAR(24),
  s_dist_10 CHAR(24),
  s_ytd INTEGER,
  s_order_cnt INTEGER,
  s_remote_cnt INTEGER,
  s_data VARCHAR(50)
);

CREATE TABLE tpcc_meta (
  m_name VARCHAR(32) NOT NULL,
  m_value INTEGER NOT NULL
);

-- after the load (sql/postgresql/indexes.sql)

ALTER TABLE warehouse ADD PRIMARY KEY (w_id);
ALTER TABLE district ADD PRIMARY KEY (d_w_id, d_id);
ALTER TABLE customer ADD PRIMARY KEY (c_w_id, c_d_id, c_id);
ALTER TABLE new_order ADD PRIMARY KEY (no_w_id, no_d_id, no_o_id);
ALTER TABLE orders ADD PRIMARY KEY (o_w_id, o_d_id, o_id);
ALTER TABLE order_line ADD PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number);
ALTER TABLE item ADD PRIMARY KEY (i_id);
ALTER TABLE stock ADD PRIMARY KEY (s_w_id, s_i_id);
ALTER TABLE tpcc_meta ADD PRIMARY KEY (m_name);
CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
ANALYZE warehouse, district, customer, history, new_order, orders, order_line, item, stock;

-- on every run connection (sql/postgresql/session.sql)


-- what the server was, for the result (sql/postgresql/settings.sql)

SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('synchronous_commit', 'shared_buffers', 'fsync', 'full_page_writes', 'wal_sync_method', 'wal_level', 'checkpoint_timeout', 'max_wal_size', 'effective_io_concurrency', 'default_transaction_isolation') ORDER BY name;
SELECT 'isolation', current_setting('transaction_isolation');
SELECT 'database_bytes', CAST(pg_database_size(current_database()) AS TEXT);

-- statements (sql/postgresql/statements.sql)

-- no_cust_wh
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?;
-- no_dist_upd
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?;
-- no_dist
SELECT d_next_o_id - 1, d_tax FROM district WHERE d_w_id = ? AND d_id = ?;
-- no_ins_order
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, NULL, ?, ?);
-- no_ins_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?);
-- no_item
SELECT i_price, i_name, i_data FROM item WHERE i_id = ?;
-- no_stock
SELECT s_quantity, s_data, CASE CAST(? AS INTEGER) WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE;
-- no_stock_upd
UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?;
-- no_ins_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?);
-- pay_wh_upd
UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?;
-- pay_wh
SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?;
-- pay_dist_upd
UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?;
-- pay_dist
SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?;
-- cust_by_name
SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first;
-- pay_cust
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- pay_cust_upd
UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- pay_cust_data
SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE;
-- pay_cust_data_upd
UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- pay_ins_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?);
-- os_cust
SELECT c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- os_last_order
SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1;
-- os_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- dl_oldest_new_order
SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE;
-- dl_del_new_order
DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?;
-- dl_order
SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?;
-- dl_order_upd
UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?;
-- dl_lines_upd
UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- dl_lines_sum
SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- dl_cust_upd
UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- sl_dist
SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?;
-- sl_count
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?;
-- pr_neword
SELECT * FROM tpcc_neword(?, ?, ?, ?, ?, ?, ?, ?, ?);
-- pr_payment
SELECT * FROM tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?);
-- pr_ostat
SELECT * FROM tpcc_ostat(?, ?, ?, ?, ?);
-- pr_delivery
SELECT * FROM tpcc_delivery(?, ?);
-- pr_slev
SELECT * FROM tpcc_slev(?, ?, ?);
-- ld_item
INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES (?, ?, ?, ?, ?);
-- ld_warehouse
INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_district
INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_customer
INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?);
-- ld_orders
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, CAST(? AS TIMESTAMP), ?, ?, ?);
-- ld_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?);
-- ld_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, CAST(? AS TIMESTAMP), ?, ?, ?);
-- ld_stock
INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_meta
INSERT INTO tpcc_meta (m_name, m_value) VALUES (?, ?);
-- meta_get
SELECT m_name, m_value FROM tpcc_meta;
-- chk_1
SELECT COUNT(CASE WHEN d.s IS NULL OR w.w_ytd <> d.s THEN 1 END), COUNT(*) FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) AS s FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id;
-- chk_2
SELECT COUNT(CASE WHEN o.m IS NULL OR d.d_next_o_id - 1 <> o.m OR (n.m IS NOT NULL AND d.d_next_o_id - 1 <> n.m) THEN 1 END), COUNT(*), COUNT(CASE WHEN n.m IS NULL THEN 1 END) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- chk_3
SELECT COUNT(CASE WHEN x.hi - x.lo + 1 <> x.c THEN 1 END), COUNT(*) FROM (SELECT MAX(no_o_id) AS hi, MIN(no_o_id) AS lo, COUNT(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) x;
-- chk_4
SELECT COUNT(CASE WHEN COALESCE(o.s, 0) <> COALESCE(l.c, 0) THEN 1 END), COUNT(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id;
-- chk_5_7
SELECT COUNT(CASE WHEN (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL) THEN 1 END), COUNT(CASE WHEN l.c IS NULL OR l.c <> o.o_ol_cnt THEN 1 END), COUNT(*), COALESCE(SUM(CASE WHEN o.o_carrier_id IS NULL THEN l.c - l.nd ELSE l.nd END), 0), COALESCE(SUM(l.c), 0) FROM orders o LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT(*) AS c, COUNT(CASE WHEN ol_delivery_d IS NULL THEN 1 END) AS nd FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id;
-- chk_8
SELECT COUNT(CASE WHEN h.s IS NULL OR w.w_ytd <> h.s THEN 1 END), COUNT(*) FROM warehouse w LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id;
-- chk_9
SELECT COUNT(CASE WHEN h.s IS NULL OR d.d_ytd <> h.s THEN 1 END), COUNT(*) FROM district d LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id;
-- chk_10_12
SELECT COUNT(CASE WHEN c.c_balance <> COALESCE(a.s, 0) - COALESCE(h.s, 0) THEN 1 END), COUNT(CASE WHEN c.c_balance + c.c_ytd_payment <> COALESCE(a.s, 0) THEN 1 END), COUNT(*) FROM customer c LEFT JOIN (SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS cid, SUM(l.ol_amount) AS s FROM orders o, order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id AND l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) a ON a.w = c.c_w_id AND a.d = c.c_d_id AND a.cid = c.c_id LEFT JOIN (SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS cid, SUM(h_amount) AS s FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.cid = c.c_id;
-- chk_11
SELECT COUNT(CASE WHEN COALESCE(o.c, 0) - COALESCE(n.c, 0) <> 2100 THEN 1 END), COUNT(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, COUNT(*) AS c FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, COUNT(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- chk_delivered
SELECT COUNT(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL;
-- chk_rows
SELECT (SELECT COUNT(*) FROM warehouse), (SELECT COUNT(*) FROM district), (SELECT COUNT(*) FROM customer), (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM new_order), (SELECT COUNT(*) FROM item), (SELECT COUNT(*) FROM stock), (SELECT COUNT(*) FROM history), (SELECT COUNT(*) FROM order_line), (SELECT COUNT(*) FROM tpcc_meta);
-- chk_ol_cnt
SELECT COALESCE(SUM(o_ol_cnt), 0) FROM orders;

-- procedures, created by prepare (sql/postgresql/procedures.sql)

-- procedure: tpcc_neword
CREATE FUNCTION tpcc_neword(p_w_id integer, p_d_id integer, p_c_id integer, p_ol_cnt integer, p_all_local integer,
    p_items varchar, p_supply varchar, p_qty varchar, p_numbers varchar)
RETURNS TABLE (r_o_id integer, r_rolled_back integer, r_total double precision)
LANGUAGE plpgsql AS $$
DECLARE
    v_o_id integer := 0;
    v_i_id integer; v_s_w_id integer; v_q integer; v_n integer; v_s_quantity integer;
    v_w_tax numeric(4, 4); v_d_tax numeric(4, 4); v_c_discount numeric(4, 4);
    v_c_last varchar(16); v_c_credit char(2);
    v_i_price numeric(5, 2); v_i_name varchar(24); v_i_data varchar(50); v_s_data varchar(50);
    v_dist char(24); v_amount numeric(6, 2); v_total numeric(12, 2) := 0;
BEGIN
    BEGIN
        SELECT c_discount, c_last, c_credit, w_tax INTO v_c_discount, v_c_last, v_c_credit, v_w_tax
        FROM customer, warehouse
        WHERE w_id = p_w_id AND c_w_id = w_id AND c_d_id = p_d_id AND c_id = p_c_id;
        UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id
        RETURNING d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax;
        INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
        VALUES (v_o_id, p_d_id, p_w_id, p_c_id, CURRENT_TIMESTAMP, NULL, p_ol_cnt, p_all_local);
        INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
        FOR v_i IN 1 .. p_ol_cnt LOOP
            v_i_id := CAST(SUBSTRING(p_items FROM v_i * 6 - 5 FOR 6) AS integer);
            v_s_w_id := CAST(SUBSTRING(p_supply FROM v_i * 6 - 5 FOR 6) AS integer);
            v_q := CAST(SUBSTRING(p_qty FROM v_i * 2 - 1 FOR 2) AS integer);
            v_n := CAST(SUBSTRING(p_numbers FROM v_i * 2 - 1 FOR 2) AS integer);
            SELECT i_price, i_name, i_data INTO v_i_price, v_i_name, v_i_data FROM item WHERE i_id = v_i_id;
            IF NOT FOUND THEN
                -- the unused item: the intended rollback (clause 2.4.2.3)
                RAISE EXCEPTION 'unused item %', v_i_id USING ERRCODE = 'TPC01';
            END IF;
            SELECT s_quantity, s_data,
                CASE p_d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                    WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08
                    WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
            INTO v_s_quantity, v_s_data, v_dist
            FROM stock WHERE s_i_id = v_i_id AND s_w_id = v_s_w_id FOR UPDATE;
            UPDATE stock
            SET s_quantity = CASE WHEN v_s_quantity >= v_q + 10 THEN v_s_quantity - v_q ELSE v_s_quantity - v_q + 91 END,
                s_ytd = s_ytd + v_q, s_order_cnt = s_order_cnt + 1,
                s_remote_cnt = s_remote_cnt + CASE WHEN v_s_w_id <> p_w_id THEN 1 ELSE 0 END
            WHERE s_i_id = v_i_id AND s_w_id = v_s_w_id;
            v_amount := v_q * v_i_price;
            INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
                ol_quantity, ol_amount, ol_dist_info)
            VALUES (v_o_id, p_d_id, p_w_id, v_n, v_i_id, v_s_w_id, NULL, v_q, v_amount, v_dist);
            v_total := v_total + v_amount;
        END LOOP;
    EXCEPTION WHEN SQLSTATE 'TPC01' THEN
        RETURN QUERY SELECT v_o_id, 1, 0.0::double precision;
        RETURN;
    END;
    RETURN QUERY SELECT v_o_id, 0, (v_total * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax))::double precision;
END $$;

-- procedure: tpcc_payment
CREATE FUNCTION tpcc_payment(p_w_id integer, p_d_id integer, p_c_w_id integer, p_c_d_id integer, p_c_id integer,
    p_c_last varchar, p_by_name integer, p_amount double precision)
RETURNS TABLE (r_c_id integer, r_c_balance double precision, r_c_credit varchar)
LANGUAGE plpgsql AS $$
DECLARE
    v_h_amount numeric(6, 2) := p_amount;
    v_c_id integer := p_c_id; v_n integer;
    v_w_name varchar(10); v_d_name varchar(10);
    v_w_street_1 varchar(20); v_w_city varchar(20); v_d_street_1 varchar(20); v_d_city varchar(20);
    v_c_first varchar(16); v_c_credit char(2); v_c_balance numeric(12, 2); v_c_since timestamp;
    v_c_data varchar(500);
BEGIN
    SELECT w_name, w_street_1, w_city INTO v_w_name, v_w_street_1, v_w_city FROM warehouse WHERE w_id = p_w_id;
    SELECT d_name, d_street_1, d_city INTO v_d_name, v_d_street_1, v_d_city
    FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    IF p_by_name = 1 THEN
        -- the customer at position ceil(n / 2) in C_FIRST order (clause 2.5.2.2)
        SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
        SELECT c_id INTO v_c_id FROM customer
        WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last
        ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 0, 0.0::double precision, ''::varchar;
            RETURN;
        END IF;
    END IF;
    UPDATE customer
    SET c_balance = c_balance - v_h_amount, c_ytd_payment = c_ytd_payment + v_h_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id
    RETURNING c_first, c_credit, c_balance, c_since INTO v_c_first, v_c_credit, v_c_balance, v_c_since;
    IF v_c_credit = 'BC' THEN
        SELECT c_data INTO v_c_data FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
        v_c_data := LEFT(CONCAT(v_c_id, ' ', p_c_d_id, ' ', p_c_w_id, ' ', p_d_id, ' ', p_w_id, ' ', v_h_amount, ' | ',
            v_c_data), 500);
        UPDATE customer SET c_data = v_c_data WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
    END IF;
    INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, CURRENT_TIMESTAMP, v_h_amount, CONCAT(v_w_name, '    ', v_d_name));
    -- the hot rows last: district and warehouse stay locked only to the commit
    UPDATE district SET d_ytd = d_ytd + v_h_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
    UPDATE warehouse SET w_ytd = w_ytd + v_h_amount WHERE w_id = p_w_id;
    RETURN QUERY SELECT v_c_id, v_c_balance::double precision, v_c_credit::varchar;
END $$;

-- procedure: tpcc_ostat
CREATE FUNCTION tpcc_ostat(p_w_id integer, p_d_id integer, p_c_id integer, p_c_last varchar, p_by_name integer)
RETURNS TABLE (r_c_id integer, r_o_id integer, r_line_count integer, r_ol_i_id integer, r_ol_supply_w_id integer,
    r_ol_quantity integer, r_ol_amount numeric, r_ol_delivery_d timestamp)
LANGUAGE plpgsql AS $$
DECLARE
    v_c_id integer := p_c_id; v_n integer; v_o_id integer := 0;
    v_c_first varchar(16); v_c_middle char(2); v_c_last varchar(16); v_c_balance numeric(12, 2);
    v_o_carrier_id integer; v_o_entry_d timestamp;
BEGIN
    IF p_by_name = 1 THEN
        SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
        SELECT c_id INTO v_c_id FROM customer
        WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last
        ORDER BY c_first OFFSET (v_n + 1) / 2 - 1 LIMIT 1;
        IF NOT FOUND THEN
            RETURN QUERY SELECT 0, 0, 0, NULL::integer, NULL::integer, NULL::integer, NULL::numeric, NULL::timestamp;
            RETURN;
        END IF;
    END IF;
    SELECT c_first, c_middle, c_last, c_balance INTO v_c_first, v_c_middle, v_c_last, v_c_balance
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
    SELECT o_id, o_carrier_id, o_entry_d INTO v_o_id, v_o_carrier_id, v_o_entry_d
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;
    -- every line of the order, returned (the terminal shows them): one row per line, or one row
    -- without a line (line_count 0) when the customer has no order
    RETURN QUERY SELECT v_c_id, COALESCE(v_o_id, 0), (COUNT(ol.ol_i_id) OVER ())::integer, ol.ol_i_id,
        ol.ol_supply_w_id, ol.ol_quantity::integer, ol.ol_amount::numeric, ol.ol_delivery_d
    FROM (SELECT 1 AS one) AS k
    LEFT JOIN order_line AS ol ON ol.ol_w_id = p_w_id AND ol.ol_d_id = p_d_id AND ol.ol_o_id = COALESCE(v_o_id, 0)
    ORDER BY ol.ol_number;
END $$;

-- procedure: tpcc_delivery
CREATE FUNCTION tpcc_delivery(p_w_id integer, p_carrier integer)
RETURNS TABLE (r_delivered integer, r_skipped integer, r_orders varchar)
LANGUAGE plpgsql AS $$
DECLARE
    v_skipped integer := 0; v_o_id integer; v_c_id integer; v_sum numeric(12, 2); v_orders varchar(80) := '';
BEGIN
    FOR v_d IN 1 .. 10 LOOP
        -- the oldest new order, locked: a concurrent Delivery waits for it
        SELECT no_o_id INTO v_o_id FROM new_order
        WHERE no_w_id = p_w_id AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
        IF NOT FOUND THEN
            v_skipped := v_skipped + 1;
            v_orders := v_orders || '0 ';
        ELSE
            DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
            UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id
            RETURNING o_c_id INTO v_c_id;
            UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP
            WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
            SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
            UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1
            WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
            v_orders := v_orders || v_o_id || ' ';
        END IF;
    END LOOP;
    RETURN QUERY SELECT 10 - v_skipped, v_skipped, v_orders;
END $$;

-- procedure: tpcc_slev
CREATE FUNCTION tpcc_slev(p_w_id integer, p_d_id integer, p_threshold integer)
RETURNS TABLE (r_low_stock integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_next integer; v_low integer;
BEGIN
    SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock
    WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id < v_next AND ol_o_id >= v_next - 20
        AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
    RETURN QUERY SELECT v_low;
END $$;

-- cleanup (sql/postgresql/drop.sql)

DROP TABLE IF EXISTS warehouse;
DROP TABLE IF EXISTS district;
DROP TABLE IF EXISTS customer;
DROP TABLE IF EXISTS history;
DROP TABLE IF EXISTS new_order;
DROP TABLE IF EXISTS orders;
DROP TABLE IF EXISTS order_line;
DROP TABLE IF EXISTS item;
DROP TABLE IF EXISTS stock;
DROP TABLE IF EXISTS tpcc_meta;
DROP FUNCTION IF EXISTS tpcc_neword;
DROP FUNCTION IF EXISTS tpcc_payment;
DROP FUNCTION IF EXISTS tpcc_ostat;
DROP FUNCTION IF EXISTS tpcc_delivery;
DROP FUNCTION IF EXISTS tpcc_slev;
