# Shared by the bench/*-compare.sh scripts (source it; benchmarks, not tests).
#   bench_start_mariadb   -> $work (a scratch folder) and $port: one private MariaDB
#                            on 127.0.0.1 with a 1 GiB buffer pool (plus
#                            MARIADB_EXTRA_OPTS), stopped and removed on exit
#   bench_need_dbrig      -> fails with one line when $DBRIG_BIN is not built
bench_here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$bench_here/tests/lib/mariadb.sh"
DBRIG_BIN=${DBRIG_BIN:-$bench_here/build/dbrig}

bench_need_dbrig() {
	[ -x "$DBRIG_BIN" ] || { echo "no dbrig binary at $DBRIG_BIN (build first, or set DBRIG_BIN)" >&2; exit 1; }
}

bench_start_mariadb() {
	work=$(mktemp -d /tmp/dbrig-bench.XXXXXX)
	port=$((30000 + RANDOM % 10000))
	trap 'mariadb_stop "$work/db"; rm -rf "$work"' EXIT
	MARIADB_EXTRA_OPTS="--innodb-buffer-pool-size=1G ${MARIADB_EXTRA_OPTS:-}" mariadb_start "$work/db" "$port"
	echo "server: $(mariadb_sql "$port" "SELECT VERSION()"), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
