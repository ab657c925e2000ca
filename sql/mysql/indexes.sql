-- Secondary indexes (and, on PostgreSQL, primary keys), built after the load.
CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first);
CREATE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id);
-- Statistics of every table, fresh after the load.
ANALYZE TABLE warehouse, district, customer, history, new_order, orders, order_line, item, stock;
