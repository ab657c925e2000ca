-- Secondary indexes (and, on PostgreSQL, primary keys), built after the load.
CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
-- HISTORY has no key; HammerDB gives it a clustered index rather than leaving it a heap, so
-- Payment's inserts go to the warehouse's own pages (built after the load: one sort of the heap).
CREATE CLUSTERED INDEX history_clustered ON history (h_w_id, h_d_id, h_c_w_id, h_c_d_id, h_c_id, h_date);
-- Statistics of every table, fresh after the load (HammerDB runs UpdateStatistics there too), so the
-- first plans are made from the loaded data.
UPDATE STATISTICS warehouse;
UPDATE STATISTICS district;
UPDATE STATISTICS customer;
UPDATE STATISTICS history;
UPDATE STATISTICS new_order;
UPDATE STATISTICS orders;
UPDATE STATISTICS order_line;
UPDATE STATISTICS item;
UPDATE STATISTICS stock;
