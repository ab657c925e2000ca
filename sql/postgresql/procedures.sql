-- dbrig TPC-C functions, PostgreSQL (PL/pgSQL): one SELECT * FROM tpcc_x(...) per transaction
-- (dbrig tpcc --mode=procedures), as HammerDB runs PostgreSQL. Created by prepare. The client
-- draws every input (NURand, remote warehouses, the 1% unused item) and checks every result,
-- as in the statement mode; each function does what the statements of
-- sql/postgresql/statements.sql do and returns one row. The connection runs with autocommit
-- on, so one call is one transaction; New-Order's intended rollback undoes its work in a
-- subtransaction (an exception block) and still returns its row. Any other error rolls the
-- whole call back and reaches the client (a deadlock is then retried).
-- Each "-- procedure: NAME" line starts one CREATE statement.
-- New-Order's lines come packed: item and supply warehouse ids 6 digits each, quantities
-- and line numbers (the line's place in the order as entered) 2 digits each, in the order
-- the lines are processed (by item, so that two New-Orders lock stock rows in one order).

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
