-- What the server was (dbrig tpcc run stores it in the result's engine.settings): settings that
-- change the workload, read on a connection set up like the run's. Each statement returns
-- (name, value) rows; one that fails is skipped with a warning, and the first value of a name wins.
SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('synchronous_commit', 'shared_buffers', 'fsync', 'full_page_writes', 'wal_sync_method', 'wal_level', 'checkpoint_timeout', 'max_wal_size', 'effective_io_concurrency', 'default_transaction_isolation') ORDER BY name;
SELECT 'isolation', current_setting('transaction_isolation');
-- The database's size (scale fidelity, docs/tpcc.md): every relation's pages.
SELECT 'database_bytes', CAST(pg_database_size(current_database()) AS TEXT);
