-- Remove every dbrig TPC-C table and procedure (dbrig tpcc cleanup). OBJECT_ID, not DROP ... IF
-- EXISTS, which SQL Server 2014 refuses (it came in 2016). Names are unqualified, as schema.sql
-- creates them: both resolve in the login's default schema.
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
