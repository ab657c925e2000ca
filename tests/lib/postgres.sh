# Start and stop a private PostgreSQL 15 on 127.0.0.1 for tests and benchmarks,
# and register the ODBC drivers project-locally. Source this file, then:
#   postgres_start DIR PORT    # initdb DIR if empty, start, wait until ready
#   postgres_stop DIR          # fast shutdown
#   postgres_sql PORT "SQL"    # run SQL as the superuser over TCP
#   odbc_register DIR          # DIR/odbcinst.ini naming [MariaDB] and [PostgreSQL];
#                              # export ODBCSYSINI=DIR to use it
# PostgreSQL refuses to run as root, so as root the server runs as the
# "postgres" user (runuser); DIR is handed to that user. Trust authentication,
# listening only on 127.0.0.1. A missing server binary is a failure, never a skip.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

pg_run() { # run a server binary as the right user
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_start() {
	local dir=$1 port=$2
	if [ ! -x "$PG_BIN/postgres" ]; then
		echo "postgres.sh: no $PG_BIN/postgres (apt-get install postgresql-15)" >&2
		return 1
	fi
	mkdir -p "$dir"
	if [ "$(id -u)" = 0 ]; then
		chown postgres "$dir"; chmod 700 "$dir"
		chmod a+x "$(dirname "$dir")" # mktemp -d folders are 0700: let the server user through
	fi
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		pg_run "$PG_BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 || {
			echo "postgres.sh: initdb failed, see $dir/initdb.log" >&2; return 1; }
	fi
	pg_run "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c shared_buffers=128MB -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c deadlock_timeout=200ms" \
		start >/dev/null 2>&1 || {
		echo "postgres.sh: server on port $port did not start; last log lines:" >&2
		tail -n 20 "$dir/server.log" >&2; return 1; }
}

postgres_stop() {
	local dir=$1
	[ -f "$dir/data/postmaster.pid" ] || return 0
	pg_run "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true
}

postgres_sql() {
	local port=$1; shift
	psql -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -At -v ON_ERROR_STOP=1 -c "$*"
}

odbc_register() {
	local dir=$1 lib=/usr/lib/x86_64-linux-gnu/odbc
	mkdir -p "$dir"
	cat >"$dir/odbcinst.ini" <<INI
[MariaDB]
Driver=$lib/libmaodbc.so
Threading=0

[PostgreSQL]
Driver=$lib/psqlodbcw.so
Threading=0

[FreeTDS]
Driver=$lib/libtdsodbc.so
INI
	: >"$dir/odbc.ini"
}

# start_postgres_tpcc: a private PostgreSQL for a TPC-C test (PG_DIR, PG_PORT), stopped on
# exit, with the user and database tpcc, and psqlODBC registered (ODBCSYSINI). Needs common.sh.
start_postgres_tpcc() {
	PG_DIR=$TEST_TMP/pg
	PG_PORT=$(free_port) || die "no free port"
	cleanup_pg() { postgres_stop "$PG_DIR"; cleanup_test; }
	trap cleanup_pg EXIT
	postgres_start "$PG_DIR" "$PG_PORT" || die "PostgreSQL did not start (is postgresql-15 installed?)"
	postgres_sql "$PG_PORT" "CREATE USER tpcc"
	postgres_sql "$PG_PORT" "CREATE DATABASE tpcc OWNER tpcc"
	odbc_register "$TEST_TMP/odbc"
	export ODBCSYSINI=$TEST_TMP/odbc
}
