#!/bin/bash
# TPC-C through libmysqlclient against a private MariaDB.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$DBRIG_SOURCE_DIR/tests/lib/tpcc.sh"
start_mariadb
mariadb_sql "$MARIADB_PORT" "CREATE DATABASE tpcc"
tpcc_suite mysql --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port="$MARIADB_PORT" --mysql-user=sbtest --mysql-db=tpcc
finish
