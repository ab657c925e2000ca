-- Sent once on every run connection, before the workload's statements.
-- NOCOUNT off whatever the server's 'user options' say: Delivery reads its DELETE's row count.
SET NOCOUNT OFF;
