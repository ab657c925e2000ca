#!/usr/bin/env bash
# Benchmark (not a test): TPC-C load speed of `dbrig tpcc prepare` against
# tpcc-mysql's tpcc_load, on one MariaDB server that this script starts on
# 127.0.0.1, same warehouse count, runs alternating. Prints rows/s of each
# round, the totals and the ratio dbrig / tpcc_load.
#
# tpcc-mysql is not part of dbrig; build it outside the tree and point
# TPCC_MYSQL_DIR at it (the folder holding tpcc_load and create_table.sql):
#   git clone https://github.com/Percona-Lab/tpcc-mysql /tmp/tpcc-mysql
#   make -C /tmp/tpcc-mysql/src ../tpcc_load
#   TPCC_MYSQL_DIR=/tmp/tpcc-mysql bench/tpcc-load-compare.sh
#
#   WAREHOUSES=2 ROUNDS=2 THREADS=2 DBRIG_ARGS='--db-driver=odbc ...' bench/tpcc-load-compare.sh
#
# tpcc_load runs as one process (all four parts, prepared single-row INSERTs,
# its own unique_checks=0 / autocommit=0 session) into tables created from its
# create_table.sql, without the secondary index; dbrig's time includes creating
# its tables and building its indexes. Rows are counted with COUNT(*) after
# each load. Target (issue 5): dbrig >= 5x tpcc_load.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
WAREHOUSES=${WAREHOUSES:-2}
ROUNDS=${ROUNDS:-2}
THREADS=${THREADS:-2}
TPCC_MYSQL_DIR=${TPCC_MYSQL_DIR:-/tmp/tpcc-mysql}
[ -x "$TPCC_MYSQL_DIR/tpcc_load" ] && [ -f "$TPCC_MYSQL_DIR/create_table.sql" ] || {
	echo "no tpcc_load in $TPCC_MYSQL_DIR: build tpcc-mysql there (see the top of $0)" >&2; exit 1; }
bench_need_dbrig
bench_start_mariadb
mariadb_make_sbtest "$port" tpcc_ref
mariadb_sql "$port" "CREATE DATABASE dbrig_tpcc"
DB="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-db=dbrig_tpcc"
[ -n "${DBRIG_ARGS:-}" ] && DB=$DBRIG_ARGS

count_rows() { # count_rows DATABASE NEW_ORDER_TABLE
	mariadb_sql "$port" "SELECT (SELECT COUNT(*) FROM $1.warehouse) + (SELECT COUNT(*) FROM $1.district)
		+ (SELECT COUNT(*) FROM $1.customer) + (SELECT COUNT(*) FROM $1.history) + (SELECT COUNT(*) FROM $1.$2)
		+ (SELECT COUNT(*) FROM $1.orders) + (SELECT COUNT(*) FROM $1.order_line)
		+ (SELECT COUNT(*) FROM $1.item) + (SELECT COUNT(*) FROM $1.stock)"
}

now() { date +%s.%N; }
declare -A ROWS SECS
for tool in tpcc_load dbrig; do ROWS[$tool]=0; SECS[$tool]=0; done

echo "== load: $WAREHOUSES warehouses, $ROUNDS rounds, alternating; dbrig --threads=$THREADS"
for r in $(seq 1 "$ROUNDS"); do
	# tpcc_load
	mariadb_sql "$port" "DROP DATABASE IF EXISTS tpcc_ref; CREATE DATABASE tpcc_ref"
	mariadb --no-defaults -uroot --protocol=tcp -h127.0.0.1 -P"$port" tpcc_ref <"$TPCC_MYSQL_DIR/create_table.sql"
	t0=$(now)
	(cd "$work" && "$TPCC_MYSQL_DIR/tpcc_load" -h 127.0.0.1 -P "$port" -d tpcc_ref -u sbtest -p "" \
		-w "$WAREHOUSES" >"$work/tpcc_load.out" 2>&1) || { tail "$work/tpcc_load.out" >&2; exit 1; }
	t1=$(now)
	n=$(count_rows tpcc_ref new_orders)
	s=$(python3 -c "print(round($t1 - $t0, 3))")
	echo "  round $r tpcc_load: $n rows in ${s}s, $(python3 -c "print(round($n / $s))") rows/s"
	ROWS[tpcc_load]=$((ROWS[tpcc_load] + n)); SECS[tpcc_load]=$(python3 -c "print(${SECS[tpcc_load]} + $s)")

	# dbrig
	"$DBRIG_BIN" tpcc $DB cleanup >/dev/null
	t0=$(now)
	"$DBRIG_BIN" tpcc $DB --warehouses="$WAREHOUSES" --threads="$THREADS" prepare >"$work/dbrig.out" 2>&1 ||
		{ tail "$work/dbrig.out" >&2; exit 1; }
	t1=$(now)
	n=$(count_rows dbrig_tpcc new_order)
	s=$(python3 -c "print(round($t1 - $t0, 3))")
	echo "  round $r dbrig:     $n rows in ${s}s, $(python3 -c "print(round($n / $s))") rows/s   ($(tail -1 "$work/dbrig.out"))"
	ROWS[dbrig]=$((ROWS[dbrig] + n)); SECS[dbrig]=$(python3 -c "print(${SECS[dbrig]} + $s)")
done

python3 - "${ROWS[tpcc_load]}" "${SECS[tpcc_load]}" "${ROWS[dbrig]}" "${SECS[dbrig]}" <<'PY'
import sys
tl = int(sys.argv[1]) / float(sys.argv[2])
db = int(sys.argv[3]) / float(sys.argv[4])
print()
print(f"{'':16}{'tpcc_load':>12}{'dbrig':>12}{'dbrig/tpcc_load':>18}  target")
print(f"{'load rows/s':16}{tl:>12.0f}{db:>12.0f}{db / tl:>18.2f}  >= 5.00")
PY
