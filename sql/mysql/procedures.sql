-- dbrig TPC-C stored procedures, MySQL / MariaDB: one CALL per transaction (dbrig tpcc
-- --mode=procedures), as HammerDB runs MySQL. Created by prepare. The client draws every
-- input (NURand, remote warehouses, the 1% unused item) and checks every result, as in the
-- statement mode; each procedure does what the statements of sql/mysql/statements.sql do,
-- in one transaction of its own (the connection runs with autocommit on), and ends with
-- one SELECT: its result row. Any error rolls the transaction back and reaches the client
-- (a deadlock or a lock wait timeout is then retried).
-- Each "-- procedure: NAME" line starts one CREATE statement, sent as one statement. One
-- variable per DECLARE, defaults as literals: the forms sqlfluff's mysql grammar reads.
-- New-Order's lines come packed: item and supply warehouse ids 6 digits each, quantities
-- and line numbers (the line's place in the order as entered) 2 digits each, in the order
-- the lines are processed (by item, so that two New-Orders lock stock rows in one order).

-- procedure: tpcc_neword
CREATE PROCEDURE tpcc_neword(IN p_w_id INT, IN p_d_id INT, IN p_c_id INT, IN p_ol_cnt INT, IN p_all_local INT,
    IN p_items VARCHAR(90), IN p_supply VARCHAR(90), IN p_qty VARCHAR(30), IN p_numbers VARCHAR(30))
proc: BEGIN
    DECLARE v_o_id INT;
    DECLARE v_i_id INT;
    DECLARE v_s_w_id INT;
    DECLARE v_q INT;
    DECLARE v_n INT;
    DECLARE v_s_quantity INT;
    DECLARE v_i INT DEFAULT 1;
    DECLARE v_w_tax DECIMAL(4, 4);
    DECLARE v_d_tax DECIMAL(4, 4);
    DECLARE v_c_discount DECIMAL(4, 4);
    DECLARE v_c_last VARCHAR(16);
    DECLARE v_c_credit CHAR(2);
    DECLARE v_i_price DECIMAL(5, 2);
    DECLARE v_i_name VARCHAR(24);
    DECLARE v_i_data VARCHAR(50);
    DECLARE v_s_data VARCHAR(50);
    DECLARE v_dist CHAR(24);
    DECLARE v_amount DECIMAL(6, 2);
    DECLARE v_total DECIMAL(12, 2) DEFAULT 0;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    START TRANSACTION;
    SELECT c_discount, c_last, c_credit, w_tax INTO v_c_discount, v_c_last, v_c_credit, v_w_tax
    FROM customer, warehouse
    WHERE w_id = p_w_id AND c_w_id = w_id AND c_d_id = p_d_id AND c_id = p_c_id;
    UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = p_w_id AND d_id = p_d_id;
    SELECT d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
    VALUES (v_o_id, p_d_id, p_w_id, p_c_id, CURRENT_TIMESTAMP, NULL, p_ol_cnt, p_all_local);
    INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (v_o_id, p_d_id, p_w_id);
    WHILE v_i <= p_ol_cnt DO
        SET v_i_id = CAST(SUBSTRING(p_items, v_i * 6 - 5, 6) AS UNSIGNED);
        SET v_s_w_id = CAST(SUBSTRING(p_supply, v_i * 6 - 5, 6) AS UNSIGNED);
        SET v_q = CAST(SUBSTRING(p_qty, v_i * 2 - 1, 2) AS UNSIGNED);
        SET v_n = CAST(SUBSTRING(p_numbers, v_i * 2 - 1, 2) AS UNSIGNED);
        SET v_i_price = NULL;
        SELECT i_price, i_name, i_data INTO v_i_price, v_i_name, v_i_data FROM item WHERE i_id = v_i_id;
        IF v_i_price IS NULL THEN
            -- the unused item: the intended rollback (clause 2.4.2.3)
            ROLLBACK;
            SELECT v_o_id AS o_id, 1 AS rolled_back, 0.0 AS total;
            LEAVE proc;
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
        SET v_amount = v_q * v_i_price;
        INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,
            ol_quantity, ol_amount, ol_dist_info)
        VALUES (v_o_id, p_d_id, p_w_id, v_n, v_i_id, v_s_w_id, NULL, v_q, v_amount, v_dist);
        SET v_total = v_total + v_amount;
        SET v_i = v_i + 1;
    END WHILE;
    COMMIT;
    SELECT v_o_id AS o_id, 0 AS rolled_back, v_total * (1 - v_c_discount) * (1 + v_w_tax + v_d_tax) AS total;
END;

-- procedure: tpcc_payment
CREATE PROCEDURE tpcc_payment(IN p_w_id INT, IN p_d_id INT, IN p_c_w_id INT, IN p_c_d_id INT, IN p_c_id INT,
    IN p_c_last VARCHAR(16), IN p_by_name INT, IN p_amount DOUBLE)
proc: BEGIN
    DECLARE v_h_amount DECIMAL(6, 2);
    DECLARE v_c_id INT;
    DECLARE v_n INT;
    DECLARE v_w_name VARCHAR(10);
    DECLARE v_d_name VARCHAR(10);
    DECLARE v_w_street_1 VARCHAR(20);
    DECLARE v_w_city VARCHAR(20);
    DECLARE v_d_street_1 VARCHAR(20);
    DECLARE v_d_city VARCHAR(20);
    DECLARE v_c_first VARCHAR(16);
    DECLARE v_c_credit CHAR(2);
    DECLARE v_c_balance DECIMAL(12, 2);
    DECLARE v_c_since DATETIME;
    DECLARE v_c_data VARCHAR(500);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    SET v_h_amount = p_amount;
    SET v_c_id = p_c_id;
    START TRANSACTION;
    SELECT w_name, w_street_1, w_city INTO v_w_name, v_w_street_1, v_w_city FROM warehouse WHERE w_id = p_w_id;
    SELECT d_name, d_street_1, d_city INTO v_d_name, v_d_street_1, v_d_city
    FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    IF p_by_name = 1 THEN
        -- the customer at position ceil(n / 2) in C_FIRST order (clause 2.5.2.2)
        SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last;
        SET v_c_id = NULL;
        SELECT x.c_id INTO v_c_id
        FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first) AS rn FROM customer
            WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_last = p_c_last) AS x
        WHERE x.rn = FLOOR((v_n + 1) / 2);
        IF v_c_id IS NULL THEN
            ROLLBACK;
            SELECT 0 AS c_id, 0.0 AS c_balance, '' AS c_credit;
            LEAVE proc;
        END IF;
    END IF;
    UPDATE customer
    SET c_balance = c_balance - v_h_amount, c_ytd_payment = c_ytd_payment + v_h_amount, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
    SELECT c_first, c_credit, c_balance, c_since INTO v_c_first, v_c_credit, v_c_balance, v_c_since
    FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
    IF v_c_credit = 'BC' THEN
        SELECT c_data INTO v_c_data FROM customer WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
        SET v_c_data = LEFT(CONCAT(v_c_id, ' ', p_c_d_id, ' ', p_c_w_id, ' ', p_d_id, ' ', p_w_id, ' ', v_h_amount, ' | ',
            v_c_data), 500);
        UPDATE customer SET c_data = v_c_data WHERE c_w_id = p_c_w_id AND c_d_id = p_c_d_id AND c_id = v_c_id;
    END IF;
    INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
    VALUES (v_c_id, p_c_d_id, p_c_w_id, p_d_id, p_w_id, CURRENT_TIMESTAMP, v_h_amount, CONCAT(v_w_name, '    ', v_d_name));
    -- the hot rows last: district and warehouse stay locked only to the commit
    UPDATE district SET d_ytd = d_ytd + v_h_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
    UPDATE warehouse SET w_ytd = w_ytd + v_h_amount WHERE w_id = p_w_id;
    COMMIT;
    SELECT v_c_id AS c_id, v_c_balance AS c_balance, v_c_credit AS c_credit;
END;

-- procedure: tpcc_ostat
CREATE PROCEDURE tpcc_ostat(IN p_w_id INT, IN p_d_id INT, IN p_c_id INT, IN p_c_last VARCHAR(16), IN p_by_name INT)
proc: BEGIN
    DECLARE v_c_id INT;
    DECLARE v_n INT;
    DECLARE v_o_carrier_id INT;
    DECLARE v_o_id INT DEFAULT 0;
    DECLARE v_c_first VARCHAR(16);
    DECLARE v_c_last VARCHAR(16);
    DECLARE v_c_middle CHAR(2);
    DECLARE v_c_balance DECIMAL(12, 2);
    DECLARE v_o_entry_d DATETIME;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    SET v_c_id = p_c_id;
    START TRANSACTION;
    IF p_by_name = 1 THEN
        SELECT COUNT(*) INTO v_n FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last;
        SET v_c_id = NULL;
        SELECT x.c_id INTO v_c_id
        FROM (SELECT c_id, ROW_NUMBER() OVER (ORDER BY c_first) AS rn FROM customer
            WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_last = p_c_last) AS x
        WHERE x.rn = FLOOR((v_n + 1) / 2);
        IF v_c_id IS NULL THEN
            COMMIT;
            SELECT 0 AS c_id, 0 AS o_id, 0 AS line_count, NULL AS ol_i_id, NULL AS ol_supply_w_id,
                NULL AS ol_quantity, NULL AS ol_amount, NULL AS ol_delivery_d;
            LEAVE proc;
        END IF;
    END IF;
    SELECT c_first, c_middle, c_last, c_balance INTO v_c_first, v_c_middle, v_c_last, v_c_balance
    FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = v_c_id;
    SELECT o_id, o_carrier_id, o_entry_d INTO v_o_id, v_o_carrier_id, v_o_entry_d
    FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = v_c_id ORDER BY o_id DESC LIMIT 1;
    -- every line of the order, returned (the terminal shows them), inside the transaction: one row
    -- per line, or one row without a line (line_count 0) when the customer has no order
    SELECT v_c_id AS c_id, v_o_id AS o_id, COUNT(ol.ol_i_id) OVER () AS line_count, ol.ol_i_id, ol.ol_supply_w_id,
        ol.ol_quantity, ol.ol_amount, ol.ol_delivery_d
    FROM (SELECT 1 AS one) AS k
    LEFT JOIN order_line AS ol ON ol.ol_w_id = p_w_id AND ol.ol_d_id = p_d_id AND ol.ol_o_id = v_o_id
    ORDER BY ol.ol_number;
    COMMIT;
END;

-- procedure: tpcc_delivery
CREATE PROCEDURE tpcc_delivery(IN p_w_id INT, IN p_carrier INT)
BEGIN
    DECLARE v_d INT DEFAULT 1;
    DECLARE v_skipped INT DEFAULT 0;
    DECLARE v_o_id INT;
    DECLARE v_c_id INT;
    DECLARE v_sum DECIMAL(12, 2);
    DECLARE v_orders VARCHAR(80) DEFAULT '';
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    START TRANSACTION;
    WHILE v_d <= 10 DO
        SET v_o_id = NULL;
        -- the oldest new order, locked: a concurrent Delivery waits for it
        SELECT no_o_id INTO v_o_id FROM new_order
        WHERE no_w_id = p_w_id AND no_d_id = v_d ORDER BY no_o_id LIMIT 1 FOR UPDATE;
        IF v_o_id IS NULL THEN
            SET v_skipped = v_skipped + 1;
            SET v_orders = CONCAT(v_orders, '0 ');
        ELSE
            DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = v_d AND no_o_id = v_o_id;
            SELECT o_c_id INTO v_c_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
            UPDATE orders SET o_carrier_id = p_carrier WHERE o_w_id = p_w_id AND o_d_id = v_d AND o_id = v_o_id;
            UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP
            WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
            SELECT SUM(ol_amount) INTO v_sum FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = v_d AND ol_o_id = v_o_id;
            UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1
            WHERE c_w_id = p_w_id AND c_d_id = v_d AND c_id = v_c_id;
            SET v_orders = CONCAT(v_orders, v_o_id, ' ');
        END IF;
        SET v_d = v_d + 1;
    END WHILE;
    COMMIT;
    SELECT 10 - v_skipped AS delivered, v_skipped AS skipped, v_orders AS orders;
END;

-- procedure: tpcc_slev
CREATE PROCEDURE tpcc_slev(IN p_w_id INT, IN p_d_id INT, IN p_threshold INT)
BEGIN
    DECLARE v_next INT;
    DECLARE v_low INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    START TRANSACTION;
    SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
    SELECT COUNT(DISTINCT s_i_id) INTO v_low FROM order_line, stock
    WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id < v_next AND ol_o_id >= v_next - 20
        AND s_w_id = p_w_id AND s_i_id = ol_i_id AND s_quantity < p_threshold;
    COMMIT;
    SELECT v_low AS low_stock;
END;
