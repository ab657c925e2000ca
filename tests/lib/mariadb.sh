# Start and stop a private MariaDB server on 127.0.0.1 for tests and benchmarks.
# Source this file, then:
#   mariadb_start DIR PORT     # initialise DIR if empty, start, wait until ready
#   mariadb_stop DIR           # clean shutdown
#   mariadb_sql PORT "SQL"     # run SQL as root over TCP
# The server runs as root (--user=root) with its data, socket and log in DIR,
# listening only on 127.0.0.1. A missing server binary is a failure, never a skip.

mariadb_bin() {
	local b
	for b in mariadbd mysqld; do
		if command -v "$b" >/dev/null 2>&1; then command -v "$b"; return 0; fi
		if [ -x "/usr/sbin/$b" ]; then echo "/usr/sbin/$b"; return 0; fi
	done
	echo "mariadb.sh: no mariadbd found (apt-get install mariadb-server)" >&2
	return 1
}

mariadb_start() {
	local dir=$1 port=$2 bin
	bin=$(mariadb_bin) || return 1
	mkdir -p "$dir"
	if [ ! -d "$dir/data/mysql" ]; then
		mariadb-install-db --no-defaults --user=root --datadir="$dir/data" \
			--auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1 || {
			echo "mariadb.sh: mariadb-install-db failed, see $dir/install.log" >&2; return 1; }
	fi
	"$bin" --no-defaults --user=root --datadir="$dir/data" --socket="$dir/mysqld.sock" \
		--pid-file="$dir/mysqld.pid" --port="$port" --bind-address=127.0.0.1 \
		--log-error="$dir/error.log" --skip-name-resolve --innodb-buffer-pool-size=256M \
		--innodb-log-file-size=256M --innodb-flush-log-at-trx-commit=${MARIADB_FLUSH_AT_COMMIT:-2} \
		--max-connections=1000 --max-prepared-stmt-count=1048576 ${MARIADB_EXTRA_OPTS:-} \
		>/dev/null 2>&1 &
	local i
	for i in $(seq 1 300); do
		if mariadb-admin --no-defaults -uroot --protocol=tcp -h127.0.0.1 -P"$port" ping >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.1
	done
	echo "mariadb.sh: server on port $port did not start; last log lines:" >&2
	tail -n 20 "$dir/error.log" >&2
	return 1
}

mariadb_stop() {
	local dir=$1 pid
	[ -f "$dir/mysqld.pid" ] || return 0
	pid=$(cat "$dir/mysqld.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	local i
	for i in $(seq 1 300); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
}

mariadb_sql() {
	local port=$1; shift
	mariadb --no-defaults -uroot --protocol=tcp -h127.0.0.1 -P"$port" -N -B -e "$*"
}

# A database and a user the way sysbench's docs set them up.
mariadb_make_sbtest() {
	local port=$1 db=${2:-sbtest} pw=${3:-}
	mariadb_sql "$port" "CREATE DATABASE IF NOT EXISTS $db;
		CREATE USER IF NOT EXISTS 'sbtest'@'127.0.0.1' IDENTIFIED BY '$pw';
		CREATE USER IF NOT EXISTS 'sbtest'@'localhost' IDENTIFIED BY '$pw';
		GRANT ALL ON *.* TO 'sbtest'@'127.0.0.1';
		GRANT ALL ON *.* TO 'sbtest'@'localhost';"
}
