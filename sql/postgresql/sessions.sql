-- dbrig: the server's session limits, read before a run opens its connections (one row):
-- the most client sessions it accepts (max_connections less the superuser's reserve), the
-- client sessions open now, and no limit on prepared statements.
SELECT CAST(current_setting('max_connections') AS BIGINT) - CAST(current_setting('superuser_reserved_connections') AS BIGINT),
    (SELECT COUNT(*) FROM pg_stat_activity WHERE backend_type = 'client backend'),
    CAST(NULL AS BIGINT),
    CAST(NULL AS BIGINT);
