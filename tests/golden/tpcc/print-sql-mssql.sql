-- dbrig TPC-C, dialect mssql: schema (sql/mssql/schema.sql)

CREATE TABLE warehouse (
  w_id INTEGER NOT NULL,
  w_name VARCHAR(10),
  w_street_1 VARCHAR(20),
  w_street_2 VARCHAR(20),
  w_city VARCHAR(20),
  w_state CHAR(2),
  w_zip CHAR(9),
  w_tax DECIMAL(4,4),
  w_ytd DECIMAL(12,2),
  w_padding CHAR(4000) NULL,
  PRIMARY KEY (w_id) WITH (ALLOW_PAGE_LOCKS = OFF)
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
  d_next_o_id INTEGER,
  d_padding CHAR(6000) NULL,
  PRIMARY KEY (d_w_id, d_id) WITH (ALLOW_PAGE_LOCKS = OFF)
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
  c_since DATETIME,
  c_credit CHAR(2),
  c_credit_lim DECIMAL(12,2),
  c_discount DECIMAL(4,4),
  c_balance DECIMAL(12,2),
  c_ytd_payment DECIMAL(12,2),
  c_payment_cnt INTEGER,
  c_delivery_cnt INTEGER,
  c_data VARCHAR(500),
  PRIMARY KEY (c_w_id, c_d_id, c_id)
);

CREATE TABLE history (
  h_c_id INTEGER,
  h_c_d_id INTEGER,
  h_c_w_id INTEGER,
  h_d_id INTEGER,
  h_w_id INTEGER,
  h_date DATETIME,
  h_amount DECIMAL(6,2),
  h_data VARCHAR(24)
);

CREATE TABLE new_order (
  no_o_id INTEGER NOT NULL,
  no_d_id INTEGER NOT NULL,
  no_w_id INTEGER NOT NULL,
  PRIMARY KEY (no_w_id, no_d_id, no_o_id)
);

CREATE TABLE orders (
  o_id INTEGER NOT NULL,
  o_d_id INTEGER NOT NULL,
  o_w_id INTEGER NOT NULL,
  o_c_id INTEGER,
  o_entry_d DATETIME,
  o_carrier_id INTEGER,
  o_ol_cnt INTEGER,
  o_all_local INTEGER,
  PRIMARY KEY (o_w_id, o_d_id, o_id)
);

CREATE TABLE order_line (
  ol_o_id INTEGER NOT NULL,
  ol_d_id INTEGER NOT NULL,
  ol_w_id INTEGER NOT NULL,
  ol_number INTEGER NOT NULL,
  ol_i_id INTEGER,
  ol_supply_w_id INTEGER,
  ol_delivery_d DATETIME,
  ol_quantity INTEGER,
  ol_amount DECIMAL(6,2),
  ol_dist_info CHAR(24),
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
);

CREATE TABLE item (
  i_id INTEGER NOT NULL,
  i_im_id INTEGER,
  i_name VARCHAR(24),
  i_price DECIMAL(5,2),
  i_data VARCHAR(50),
  PRIMARY KEY (i_id)
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
  s_data VARCHAR(50),
  PRIMARY KEY (s_w_id, s_i_id)
);

CREATE TABLE tpcc_meta (
  m_name VARCHAR(32) NOT NULL,
  m_value INTEGER NOT NULL,
  PRIMARY KEY (m_name)
);

-- after the load (sql/mssql/indexes.sql)

CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
CREATE CLUSTERED INDEX history_clustered ON history (h_w_id, h_d_id, h_c_w_id, h_c_d_id, h_c_id, h_date);
UPDATE STATISTICS warehouse;
UPDATE STATISTICS district;
UPDATE STATISTICS customer;
UPDATE STATISTICS history;
UPDATE STATISTICS new_order;
UPDATE STATISTICS orders;
UPDATE STATISTICS order_line;
UPDATE STATISTICS item;
UPDATE STATISTICS stock;

-- on every run connection (sql/mssql/session.sql)

SET NOCOUNT OFF;

-- what the server was, for the result (sql/mssql/settings.sql)

SELECT 'read_committed_snapshot', CASE is_read_committed_snapshot_on WHEN 1 THEN 'ON' ELSE 'OFF' END FROM sys.databases WHERE name = DB_NAME() UNION ALL SELECT 'snapshot_isolation', snapshot_isolation_state_desc FROM sys.databases WHERE name = DB_NAME() UNION ALL SELECT 'recovery_model', recovery_model_desc FROM sys.databases WHERE name = DB_NAME();
SELECT 'max_server_memory_mb', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'max server memory (MB)' UNION ALL SELECT 'maxdop', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'max degree of parallelism' UNION ALL SELECT 'cost_threshold_for_parallelism', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'cost threshold for parallelism';
SELECT 'isolation', CASE transaction_isolation_level WHEN 1 THEN 'READ UNCOMMITTED' WHEN 2 THEN 'READ COMMITTED' WHEN 3 THEN 'REPEATABLE READ' WHEN 4 THEN 'SERIALIZABLE' WHEN 5 THEN 'SNAPSHOT' ELSE 'UNSPECIFIED' END FROM sys.dm_exec_sessions WHERE session_id = @@SPID;
SELECT 'encrypt', encrypt_option FROM sys.dm_exec_connections WHERE session_id = @@SPID;
SELECT 'product_version', CAST(SERVERPROPERTY('ProductVersion') AS VARCHAR(40)) UNION ALL SELECT 'edition', CAST(SERVERPROPERTY('Edition') AS VARCHAR(80));
SELECT 'data_file_mb', CAST(SUM(CAST(size AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 0 UNION ALL SELECT 'log_file_mb', CAST(SUM(CAST(size AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 1 UNION ALL SELECT 'data_used_mb', CAST(SUM(CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 0;

-- statements (sql/mssql/statements.sql)

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
SELECT s_quantity, s_data, CASE ? WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END FROM stock WITH (UPDLOCK, ROWLOCK) WHERE s_i_id = ? AND s_w_id = ?;
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
SELECT c_data FROM customer WITH (UPDLOCK, ROWLOCK) WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- pay_cust_data_upd
UPDATE customer SET c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- pay_ins_history
INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP, ?, ?);
-- os_cust
SELECT c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?;
-- os_last_order
SELECT TOP 1 o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC;
-- os_lines
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?;
-- dl_oldest_new_order
SELECT TOP 1 no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK) WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id;
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
SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ? OPTION (LOOP JOIN, MAXDOP 1);
-- pr_neword
EXEC tpcc_neword ?, ?, ?, ?, ?, ?, ?, ?, ?;
-- pr_payment
EXEC tpcc_payment ?, ?, ?, ?, ?, ?, ?, ?;
-- pr_ostat
EXEC tpcc_ostat ?, ?, ?, ?, ?;
-- pr_delivery
EXEC tpcc_delivery ?, ?;
-- pr_slev
EXEC tpcc_slev ?, ?, ?;
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
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?, ?);
-- ld_new_order
INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?);
-- ld_order_line
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_stock
INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- ld_meta
INSERT INTO tpcc_meta (m_name, m_value) VALUES (?, ?);
-- meta_get
SELECT m_name, m_value FROM tpcc_meta;
-- chk_1
SELECT COUNT_BIG(CASE WHEN d.s IS NULL OR w.w_ytd <> d.s THEN 1 END), COUNT_BIG(*) FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) AS s FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id;
-- chk_2
SELECT COUNT_BIG(CASE WHEN o.m IS NULL OR d.d_next_o_id - 1 <> o.m OR (n.m IS NOT NULL AND d.d_next_o_id - 1 <> n.m) THEN 1 END), COUNT_BIG(*), COUNT_BIG(CASE WHEN n.m IS NULL THEN 1 END) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- chk_3
SELECT COUNT_BIG(CASE WHEN x.hi - x.lo + 1 <> x.c THEN 1 END), COUNT_BIG(*) FROM (SELECT MAX(no_o_id) AS hi, MIN(no_o_id) AS lo, COUNT_BIG(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) x;
-- chk_4
SELECT COUNT_BIG(CASE WHEN COALESCE(o.s, 0) <> COALESCE(l.c, 0) THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, SUM(CAST(o_ol_cnt AS BIGINT)) AS s FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT_BIG(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id;
-- chk_5_7
SELECT COUNT_BIG(CASE WHEN (o.o_carrier_id IS NULL AND n.no_o_id IS NULL) OR (o.o_carrier_id IS NOT NULL AND n.no_o_id IS NOT NULL) THEN 1 END), COUNT_BIG(CASE WHEN l.c IS NULL OR l.c <> o.o_ol_cnt THEN 1 END), COUNT_BIG(*), COALESCE(SUM(CASE WHEN o.o_carrier_id IS NULL THEN l.c - l.nd ELSE l.nd END), 0), COALESCE(SUM(l.c), 0) FROM orders o LEFT JOIN new_order n ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, COUNT_BIG(*) AS c, COUNT_BIG(CASE WHEN ol_delivery_d IS NULL THEN 1 END) AS nd FROM order_line GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id;
-- chk_8
SELECT COUNT_BIG(CASE WHEN h.s IS NULL OR w.w_ytd <> h.s THEN 1 END), COUNT_BIG(*) FROM warehouse w LEFT JOIN (SELECT h_w_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id;
-- chk_9
SELECT COUNT_BIG(CASE WHEN h.s IS NULL OR d.d_ytd <> h.s THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT h_w_id, h_d_id, SUM(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id;
-- chk_10_12
SELECT COUNT_BIG(CASE WHEN c.c_balance <> COALESCE(a.s, 0) - COALESCE(h.s, 0) THEN 1 END), COUNT_BIG(CASE WHEN c.c_balance + c.c_ytd_payment <> COALESCE(a.s, 0) THEN 1 END), COUNT_BIG(*) FROM customer c LEFT JOIN (SELECT o.o_w_id AS w, o.o_d_id AS d, o.o_c_id AS cid, SUM(l.ol_amount) AS s FROM orders o, order_line l WHERE l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id AND l.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) a ON a.w = c.c_w_id AND a.d = c.c_d_id AND a.cid = c.c_id LEFT JOIN (SELECT h_c_w_id AS w, h_c_d_id AS d, h_c_id AS cid, SUM(h_amount) AS s FROM history GROUP BY h_c_w_id, h_c_d_id, h_c_id) h ON h.w = c.c_w_id AND h.d = c.c_d_id AND h.cid = c.c_id;
-- chk_11
SELECT COUNT_BIG(CASE WHEN COALESCE(o.c, 0) - COALESCE(n.c, 0) <> 2100 THEN 1 END), COUNT_BIG(*) FROM district d LEFT JOIN (SELECT o_w_id, o_d_id, COUNT_BIG(*) AS c FROM orders GROUP BY o_w_id, o_d_id) o ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id LEFT JOIN (SELECT no_w_id, no_d_id, COUNT_BIG(*) AS c FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id;
-- chk_delivered
SELECT COUNT_BIG(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL;
-- chk_rows
SELECT (SELECT COUNT_BIG(*) FROM warehouse), (SELECT COUNT_BIG(*) FROM district), (SELECT COUNT_BIG(*) FROM customer), (SELECT COUNT_BIG(*) FROM orders), (SELECT COUNT_BIG(*) FROM new_order), (SELECT COUNT_BIG(*) FROM item), (SELECT COUNT_BIG(*) FROM stock), (SELECT COUNT_BIG(*) FROM history), (SELECT COUNT_BIG(*) FROM order_line), (SELECT COUNT_BIG(*) FROM tpcc_meta);
-- chk_ol_cnt
SELECT COALESCE(SUM(CAST(o_ol_cnt AS BIGINT)), 0) FROM orders;

-- procedures, created by prepare (sql/mssql/procedures.sql)

-- procedure: tpcc_neword
CREATE PROCEDURE tpcc_neword @w_id INT, @d_id INT, @c_id INT, @ol_cnt INT, @all_local INT,
    @items VARCHAR(90), @supply VARCHAR(90), @qty VARCHAR(30), @numbers VARCHAR(30)
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @o_id INT, @w_tax DECIMAL(4, 4), @d_tax DECIMAL(4, 4), @c_discount DECIMAL(4, 4);
    DECLARE @c_last VARCHAR(16), @c_credit CHAR(2);
    DECLARE @i INT = 1, @i_id INT, @s_w_id INT, @q INT, @n INT, @s_quantity INT;
    DECLARE @i_price DECIMAL(5, 2), @i_name VARCHAR(24), @i_data VARCHAR(50), @s_data VARCHAR(50);
    DECLARE @dist CHAR(24), @amount DECIMAL(6, 2), @total DECIMAL(12, 2) = 0;
    BEGIN TRANSACTION;
    SELECT @c_discount = c_discount, @c_last = c_last, @c_credit = c_credit, @w_tax = w_tax
    FROM customer, warehouse
    WHERE w_id = @w_id AND c_w_id = w_id AND c_d_id = @d_id AND c_id = @c_id;
    UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = @w_id AND d_id = @d_id;
    SELECT @o_id = d_next_o_id - 1, @d_tax = d_tax FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
    INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (@o_id, @d_id, @w_id, @c_id, CURRENT_TIMESTAMP, NULL, @ol_cnt, @all_local);
    INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (@o_id, @d_id, @w_id);
    WHILE @i <= @ol_cnt
    BEGIN
        SET @i_id = CAST(SUBSTRING(@items, @i * 6 - 5, 6) AS INT);
        SET @s_w_id = CAST(SUBSTRING(@supply, @i * 6 - 5, 6) AS INT);
        SET @q = CAST(SUBSTRING(@qty, @i * 2 - 1, 2) AS INT);
        SET @n = CAST(SUBSTRING(@numbers, @i * 2 - 1, 2) AS INT);
        SET @i_price = NULL;
        SELECT @i_price = i_price, @i_name = i_name, @i_data = i_data FROM item WHERE i_id = @i_id;
        IF @i_price IS NULL
        BEGIN
            -- the unused item: the intended rollback (clause 2.4.2.3)
            ROLLBACK TRANSACTION;
            SELECT @o_id AS o_id, 1 AS rolled_back, 0.0 AS total;
            RETURN;
        END;
        SELECT @s_quantity = s_quantity, @s_data = s_data,
            @dist = CASE @d_id WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03
                WHEN 4 THEN s_dist_04 WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07
                WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09 ELSE s_dist_10 END
        FROM stock WITH (UPDLOCK, ROWLOCK) WHERE s_i_id = @i_id AND s_w_id = @s_w_id;
        UPDATE stock
        SET s_quantity = CASE WHEN @s_quantity >= @q + 10 THEN @s_quantity - @q ELSE @s_quantity - @q + 91 END,
            s_ytd = s_ytd + @q, s_order_cnt = s_order_cnt + 1,
            s_remote_cnt = s_remote_cnt + CASE WHEN @s_w_id <> @w_id THEN 1 ELSE 0 END
        WHERE s_i_id = @i_id AND s_w_id = @s_w_id;
        SET @amount = @q * @i_price;
        INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
            ol_quantity, ol_amount, ol_dist_info)
        VALUES (@o_id, @d_id, @w_id, @n, @i_id, @s_w_id, NULL, @q, @amount, @dist);
        SET @total = @total + @amount;
        SET @i = @i + 1;
    END;
    COMMIT TRANSACTION;
    SELECT @o_id AS o_id, 0 AS rolled_back, @total * (1 - @c_discount) * (1 + @w_tax + @d_tax) AS total;
END;

-- procedure: tpcc_payment
CREATE PROCEDURE tpcc_payment @w_id INT, @d_id INT, @c_w_id INT, @c_d_id INT, @c_id INT,
    @c_last VARCHAR(16), @by_name INT, @amount FLOAT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @h_amount DECIMAL(6, 2) = @amount, @n INT, @w_name VARCHAR(10), @d_name VARCHAR(10);
    DECLARE @w_street_1 VARCHAR(20), @w_city VARCHAR(20), @d_street_1 VARCHAR(20), @d_city VARCHAR(20);
    DECLARE @c_first VARCHAR(16), @c_credit CHAR(2), @c_balance DECIMAL(12, 2), @c_since DATETIME;
    DECLARE @c_data VARCHAR(500);
    BEGIN TRANSACTION;
    SELECT @w_name = w_name, @w_street_1 = w_street_1, @w_city = w_city FROM warehouse WHERE w_id = @w_id;
    SELECT @d_name = d_name, @d_street_1 = d_street_1, @d_city = d_city
    FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
    IF @by_name = 1
    BEGIN
        -- the customer at position ceil(n / 2) in C_FIRST order (clause 2.5.2.2)
        SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last;
        SET @c_id = NULL;
        SELECT @c_id = x.c_id
        FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first) AS rn FROM customer
            WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_last = @c_last) AS x
        WHERE x.rn = (@n + 1) / 2;
        IF @c_id IS NULL
        BEGIN
            ROLLBACK TRANSACTION;
            SELECT 0 AS c_id, 0.0 AS c_balance, '' AS c_credit;
            RETURN;
        END;
    END;
    UPDATE customer
    SET c_balance = c_balance - @h_amount, c_ytd_payment = c_ytd_payment + @h_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @c_id;
    SELECT @c_first = c_first, @c_credit = c_credit, @c_balance = c_balance, @c_since = c_since
    FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @c_id;
    IF @c_credit = 'BC'
    BEGIN
        SELECT @c_data = c_data FROM customer WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @c_id;
        SET @c_data = LEFT(CONCAT(@c_id, ' ', @c_d_id, ' ', @c_w_id, ' ', @d_id, ' ', @w_id, ' ', @h_amount, ' | ', @c_data), 500);
        UPDATE customer SET c_data = @c_data WHERE c_w_id = @c_w_id AND c_d_id = @c_d_id AND c_id = @c_id;
    END;
    INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (@c_id, @c_d_id, @c_w_id, @d_id, @w_id, CURRENT_TIMESTAMP, @h_amount, CONCAT(@w_name, '    ', @d_name));
    -- the hot rows last: district and warehouse stay locked only to the commit
    UPDATE district SET d_ytd = d_ytd + @h_amount WHERE d_w_id = @w_id AND d_id = @d_id;
    UPDATE warehouse SET w_ytd = w_ytd + @h_amount WHERE w_id = @w_id;
    COMMIT TRANSACTION;
    SELECT @c_id AS c_id, @c_balance AS c_balance, @c_credit AS c_credit;
END;

-- procedure: tpcc_ostat
CREATE PROCEDURE tpcc_ostat @w_id INT, @d_id INT, @c_id INT, @c_last VARCHAR(16), @by_name INT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @n INT, @c_first VARCHAR(16), @c_middle CHAR(2), @c_balance DECIMAL(12, 2);
    DECLARE @o_id INT = 0, @o_carrier_id INT, @o_entry_d DATETIME;
    DECLARE @ln TABLE (ol_number INT, ol_i_id INT, ol_supply_w_id INT, ol_quantity INT, ol_amount DECIMAL(6, 2),
        ol_delivery_d DATETIME);
    BEGIN TRANSACTION;
    IF @by_name = 1
    BEGIN
        SELECT @n = COUNT(*) FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last;
        SET @c_id = NULL;
        SELECT @c_id = x.c_id
        FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first) AS rn FROM customer
            WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_last = @c_last) AS x
        WHERE x.rn = (@n + 1) / 2;
        IF @c_id IS NULL
        BEGIN
            COMMIT TRANSACTION;
            SELECT 0 AS c_id, 0 AS o_id, 0 AS line_count, NULL AS ol_i_id, NULL AS ol_supply_w_id,
                NULL AS ol_quantity, NULL AS ol_amount, NULL AS ol_delivery_d;
            RETURN;
        END;
    END;
    SELECT @c_first = c_first, @c_middle = c_middle, @c_last = c_last, @c_balance = c_balance
    FROM customer WHERE c_w_id = @w_id AND c_d_id = @d_id AND c_id = @c_id;
    SELECT TOP 1 @o_id = o_id, @o_carrier_id = o_carrier_id, @o_entry_d = o_entry_d
    FROM orders WHERE o_w_id = @w_id AND o_d_id = @d_id AND o_c_id = @c_id ORDER BY o_id DESC;
    -- every line of the order, read inside the transaction and returned after it (the terminal shows
    -- them): one row per line, or one row without a line (line_count 0) when the customer has no order
    INSERT INTO @ln (ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d)
    SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d
    FROM order_line WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id = @o_id;
    COMMIT TRANSACTION;
    SELECT @c_id AS c_id, @o_id AS o_id, COUNT(l.ol_i_id) OVER () AS line_count, l.ol_i_id, l.ol_supply_w_id,
        l.ol_quantity, l.ol_amount, l.ol_delivery_d
    FROM (SELECT 1 AS one) AS k
    LEFT JOIN @ln AS l ON 1 = 1
    ORDER BY l.ol_number;
END;

-- procedure: tpcc_delivery
CREATE PROCEDURE tpcc_delivery @w_id INT, @carrier INT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @d INT = 1, @o_id INT, @c_id INT, @sum DECIMAL(12, 2), @skipped INT = 0, @orders VARCHAR(80) = '';
    BEGIN TRANSACTION;
    WHILE @d <= 10
    BEGIN
        SET @o_id = NULL;
        -- the oldest new order, locked: a concurrent Delivery waits for it (HammerDB: updlock)
        SELECT TOP 1 @o_id = no_o_id FROM new_order WITH (UPDLOCK, ROWLOCK)
        WHERE no_w_id = @w_id AND no_d_id = @d ORDER BY no_o_id;
        IF @o_id IS NULL
        BEGIN
            SET @skipped = @skipped + 1;
            SET @orders = CONCAT(@orders, '0 ');
        END
        ELSE
        BEGIN
            DELETE FROM new_order WHERE no_w_id = @w_id AND no_d_id = @d AND no_o_id = @o_id;
            SELECT @c_id = o_c_id FROM orders WHERE o_w_id = @w_id AND o_d_id = @d AND o_id = @o_id;
            UPDATE orders SET o_carrier_id = @carrier WHERE o_w_id = @w_id AND o_d_id = @d AND o_id = @o_id;
            UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP
            WHERE ol_w_id = @w_id AND ol_d_id = @d AND ol_o_id = @o_id;
            SELECT @sum = SUM(ol_amount) FROM order_line WHERE ol_w_id = @w_id AND ol_d_id = @d AND ol_o_id = @o_id;
            UPDATE customer SET c_balance = c_balance + @sum, c_delivery_cnt = c_delivery_cnt + 1
            WHERE c_w_id = @w_id AND c_d_id = @d AND c_id = @c_id;
            SET @orders = CONCAT(@orders, @o_id, ' ');
        END;
        SET @d = @d + 1;
    END;
    COMMIT TRANSACTION;
    SELECT 10 - @skipped AS delivered, @skipped AS skipped, @orders AS orders;
END;

-- procedure: tpcc_slev
CREATE PROCEDURE tpcc_slev @w_id INT, @d_id INT, @threshold INT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    DECLARE @next INT, @low INT;
    BEGIN TRANSACTION;
    SELECT @next = d_next_o_id FROM district WHERE d_w_id = @w_id AND d_id = @d_id;
    SELECT @low = COUNT(DISTINCT s_i_id) FROM order_line, stock
    WHERE ol_w_id = @w_id AND ol_d_id = @d_id AND ol_o_id < @next AND ol_o_id >= @next - 20
        AND s_w_id = @w_id AND s_i_id = ol_i_id AND s_quantity < @threshold
    OPTION (LOOP JOIN, MAXDOP 1);
    COMMIT TRANSACTION;
    SELECT @low AS low_stock;
END;

-- cleanup (sql/mssql/drop.sql)

IF OBJECT_ID(N'warehouse', N'U') IS NOT NULL DROP TABLE warehouse;
IF OBJECT_ID(N'district', N'U') IS NOT NULL DROP TABLE district;
IF OBJECT_ID(N'customer', N'U') IS NOT NULL DROP TABLE customer;
IF OBJECT_ID(N'history', N'U') IS NOT NULL DROP TABLE history;
IF OBJECT_ID(N'new_order', N'U') IS NOT NULL DROP TABLE new_order;
IF OBJECT_ID(N'orders', N'U') IS NOT NULL DROP TABLE orders;
IF OBJECT_ID(N'order_line', N'U') IS NOT NULL DROP TABLE order_line;
IF OBJECT_ID(N'item', N'U') IS NOT NULL DROP TABLE item;
IF OBJECT_ID(N'stock', N'U') IS NOT NULL DROP TABLE stock;
IF OBJECT_ID(N'tpcc_meta', N'U') IS NOT NULL DROP TABLE tpcc_meta;
IF OBJECT_ID(N'tpcc_neword', N'P') IS NOT NULL DROP PROCEDURE tpcc_neword;
IF OBJECT_ID(N'tpcc_payment', N'P') IS NOT NULL DROP PROCEDURE tpcc_payment;
IF OBJECT_ID(N'tpcc_ostat', N'P') IS NOT NULL DROP PROCEDURE tpcc_ostat;
IF OBJECT_ID(N'tpcc_delivery', N'P') IS NOT NULL DROP PROCEDURE tpcc_delivery;
IF OBJECT_ID(N'tpcc_slev', N'P') IS NOT NULL DROP PROCEDURE tpcc_slev;
