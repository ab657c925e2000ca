-- What the server was (dbrig tpcc run stores it in the result's engine.settings): settings that
-- change the workload, read on a connection set up like the run's. Each statement returns
-- (name, value) rows; one that fails is skipped with a warning, and the first value of a name
-- wins (MySQL 8 and MariaDB 11.1+ name the isolation transaction_isolation, MariaDB 10 tx_isolation).
SELECT 'innodb_flush_log_at_trx_commit', CAST(@@global.innodb_flush_log_at_trx_commit AS CHAR) UNION ALL SELECT 'innodb_flush_method', CAST(@@global.innodb_flush_method AS CHAR) UNION ALL SELECT 'innodb_doublewrite', CAST(@@global.innodb_doublewrite AS CHAR) UNION ALL SELECT 'innodb_buffer_pool_size', CAST(@@global.innodb_buffer_pool_size AS CHAR) UNION ALL SELECT 'innodb_log_file_size', CAST(@@global.innodb_log_file_size AS CHAR) UNION ALL SELECT 'innodb_io_capacity', CAST(@@global.innodb_io_capacity AS CHAR) UNION ALL SELECT 'sync_binlog', CAST(@@global.sync_binlog AS CHAR) UNION ALL SELECT 'log_bin', CAST(@@global.log_bin AS CHAR);
SELECT 'isolation', CAST(@@session.transaction_isolation AS CHAR);
SELECT 'isolation', CAST(@@session.tx_isolation AS CHAR);
SELECT 'autocommit', CAST(@@session.autocommit AS CHAR);
-- The database's size (scale fidelity, docs/tpcc.md): its tables' pages, data and indexes.
SELECT 'database_bytes', CAST(SUM(data_length + index_length) AS CHAR) FROM information_schema.tables WHERE table_schema = DATABASE();
