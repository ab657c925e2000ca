-- dbrig: the server's session limits, read before a run opens its connections (one row):
-- the most client sessions it accepts, the sessions open now, the most prepared statements
-- and the prepared statements open now (NULL where the server has no such limit).
SELECT (SELECT CAST(variable_value AS UNSIGNED) FROM information_schema.global_variables WHERE variable_name = 'MAX_CONNECTIONS'),
    (SELECT CAST(variable_value AS UNSIGNED) FROM information_schema.global_status WHERE variable_name = 'THREADS_CONNECTED'),
    (SELECT CAST(variable_value AS UNSIGNED) FROM information_schema.global_variables WHERE variable_name = 'MAX_PREPARED_STMT_COUNT'),
    (SELECT CAST(variable_value AS UNSIGNED) FROM information_schema.global_status WHERE variable_name = 'PREPARED_STMT_COUNT');
