#!/bin/bash
# The SQL of every dialect checked by an independent parser: each statement and
# procedure dbrig holds (dbrig tpcc --print-sql) parses under Debian's sqlfluff
# with the dialect's grammar (tsql for sql/mssql, whose T-SQL runs nowhere here;
# mysql; postgres), and the negative controls of tests/sqlfluff/*.controls
# (another dialect's syntax: FOR UPDATE, LIMIT and backticks for tsql; table
# hints, EXEC and T-SQL procedures for the others) plus a misspelt statement of
# the dialect's own are rejected by the same check, so the test can fail.
# No server: the build does not change what is parsed, so scripts/test.sh runs
# it in the plain build only.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
PY=/usr/bin/python3
"$PY" -c 'import sqlfluff' 2>/dev/null || skip_test "sqlfluff is not installed (apt-get install sqlfluff)"
for d in mssql:tsql mysql:mysql postgresql:postgres; do
	dialect=${d%:*} grammar=${d#*:}
	"$DBRIG_BIN" tpcc --print-sql --dialect="$dialect" >"$TEST_TMP/$dialect.sql" || fail "$dialect: --print-sql"
	check "$dialect: every statement and procedure parses as $grammar, every control is rejected" \
		"$PY" "$DBRIG_SOURCE_DIR/tests/helpers/sqlfluff_check.py" "$grammar" "$TEST_TMP/$dialect.sql" \
		"$DBRIG_SOURCE_DIR/tests/sqlfluff/$grammar.controls"
done
check "mssql: the procedures were among them" [ "$(grep -c '^-- procedure: ' "$TEST_TMP/mssql.sql")" = 5 ]
finish
