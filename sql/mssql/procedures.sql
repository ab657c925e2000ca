-- dbrig TPC-C stored procedures, SQL Server (T-SQL): one call per transaction (dbrig tpcc
-- --mode=procedures), as HammerDB runs SQL Server. Created by prepare; not run here: no SQL
-- Server exists on the test machines (the T-SQL is parsed by sqlfluff's tsql grammar in the
-- tests). The client draws every input (NURand, remote warehouses, the 1% unused item) and
-- checks every result, as in the statement mode; each procedure does what the statements
-- of sql/mssql/statements.sql do, in one transaction, and returns one row.
-- Each "-- procedure: NAME" line starts one CREATE statement, sent as one batch.
-- New-Order's lines come packed: item and supply warehouse ids 6 digits each, quantities
-- and line numbers (the line's place in the order as entered) 2 digits each, in the order
-- the lines are processed (by item, so that two New-Orders lock stock rows in one order).

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
