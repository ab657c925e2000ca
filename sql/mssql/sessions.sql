-- dbrig: the server's session limits, read before a run opens its connections (one row):
-- the most user connections it accepts ('user connections', 0 = the maximum, 32,767), the
-- user sessions open now (without VIEW SERVER STATE only one's own session shows), and no
-- limit on prepared statements.
SELECT (SELECT CASE WHEN CAST(value_in_use AS BIGINT) = 0 THEN 32767 ELSE CAST(value_in_use AS BIGINT) END FROM sys.configurations WHERE name = 'user connections'),
    (SELECT CAST(COUNT(*) AS BIGINT) FROM sys.dm_exec_sessions WHERE is_user_process = 1),
    CAST(NULL AS BIGINT),
    CAST(NULL AS BIGINT);
