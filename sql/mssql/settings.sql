-- What the server was (dbrig tpcc run stores it in the result's engine.settings): settings that
-- change the workload, read on a connection set up like the run's. Each statement returns
-- (name, value) rows; one that fails (a missing permission) is skipped with a warning, and the
-- first value of a name wins.
SELECT 'read_committed_snapshot', CASE is_read_committed_snapshot_on WHEN 1 THEN 'ON' ELSE 'OFF' END FROM sys.databases WHERE name = DB_NAME() UNION ALL SELECT 'snapshot_isolation', snapshot_isolation_state_desc FROM sys.databases WHERE name = DB_NAME() UNION ALL SELECT 'recovery_model', recovery_model_desc FROM sys.databases WHERE name = DB_NAME();
SELECT 'max_server_memory_mb', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'max server memory (MB)' UNION ALL SELECT 'maxdop', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'max degree of parallelism' UNION ALL SELECT 'cost_threshold_for_parallelism', CAST(value_in_use AS VARCHAR(20)) FROM sys.configurations WHERE name = 'cost threshold for parallelism';
SELECT 'isolation', CASE transaction_isolation_level WHEN 1 THEN 'READ UNCOMMITTED' WHEN 2 THEN 'READ COMMITTED' WHEN 3 THEN 'REPEATABLE READ' WHEN 4 THEN 'SERIALIZABLE' WHEN 5 THEN 'SNAPSHOT' ELSE 'UNSPECIFIED' END FROM sys.dm_exec_sessions WHERE session_id = @@SPID;
SELECT 'encrypt', encrypt_option FROM sys.dm_exec_connections WHERE session_id = @@SPID;
SELECT 'product_version', CAST(SERVERPROPERTY('ProductVersion') AS VARCHAR(40)) UNION ALL SELECT 'edition', CAST(SERVERPROPERTY('Edition') AS VARCHAR(80));
-- The database's files as the guest setup sized them (sqlserver_data_size, sqlserver_log_size) and the
-- data pages in use (scale fidelity, docs/tpcc.md): sizes in 8 KiB pages, / 128 = MB.
SELECT 'data_file_mb', CAST(SUM(CAST(size AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 0 UNION ALL SELECT 'log_file_mb', CAST(SUM(CAST(size AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 1 UNION ALL SELECT 'data_used_mb', CAST(SUM(CAST(FILEPROPERTY(name, 'SpaceUsed') AS BIGINT)) / 128 AS VARCHAR(20)) FROM sys.database_files WHERE type = 0;
