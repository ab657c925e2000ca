-- Remove every dbrig TPC-C table and procedure (dbrig tpcc cleanup).
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
DROP PROCEDURE IF EXISTS tpcc_neword;
DROP PROCEDURE IF EXISTS tpcc_payment;
DROP PROCEDURE IF EXISTS tpcc_ostat;
DROP PROCEDURE IF EXISTS tpcc_delivery;
DROP PROCEDURE IF EXISTS tpcc_slev;
