#!/bin/sh
# dbrig guest setup for {{&drive}}/{{&instance}} of campaign {{&campaign}} (rendered by dbrig from
# vm-templates/sysbench-setup.sh). It runs at every boot from dbrig-setup.service, which
# cloud-init installs from the user-data, and is idempotent (cloud-init sets the hostname):
#   - the under-test disk (serial dbrig-undertest) gets a file system when it has none
#     (a fresh VM); a restored disk already holds the golden database and is used as it is
#   - it is mounted on /srv/dbrig-data; the database's datadir is /srv/dbrig-data/mysql
#   - the server listens on every address, port {{&db_port}}, buffer pool {{&buffer_pool}} bytes
#   - the driver's user {{&db_user}}@'%' owns the database sbtest
# The pre-built disk (serial dbrig-prebuilt) is never mounted in the guest: the host clones it.
set -eu
log() { echo "dbrig-setup: $*"; }
# mariadb-install-db wants the hostname resolvable.
grep -q ' {{&hostname}}$' /etc/hosts || echo '127.0.1.1 {{&hostname}}' >>/etc/hosts
# Socket activation or an enabled unit may have started the server on the image's datadir.
systemctl stop mariadb.socket mariadb.service mysql.service 2>/dev/null || true

disk=
for _ in $(seq 1 60); do
	disk=$(lsblk -dnpo NAME,SERIAL | awk '$2 == "dbrig-undertest" { print $1 }')
	[ -n "$disk" ] && break
	sleep 1
done
[ -n "$disk" ] || { log "no disk with serial dbrig-undertest (is the controller visible to this kernel?)" >&2; exit 1; }
if ! blkid "$disk" >/dev/null 2>&1; then
	log "formatting the under-test disk $disk"
	mkfs.ext4 -q -L dbrig-data -E lazy_itable_init=1,lazy_journal_init=1 "$disk"
fi
mkdir -p /srv/dbrig-data
mountpoint -q /srv/dbrig-data || mount -o noatime "$disk" /srv/dbrig-data
datadir=/srv/dbrig-data/mysql
if [ ! -d "$datadir/mysql" ]; then
	log "initialising $datadir"
	mkdir -p "$datadir"
	chown mysql:mysql "$datadir"
	if command -v mariadb-install-db >/dev/null; then
		mariadb-install-db --user=mysql --datadir="$datadir" --skip-test-db --skip-name-resolve
	else
		mysqld --initialize-insecure --user=mysql --datadir="$datadir"
	fi
fi
chown mysql:mysql "$datadir"
confdir=/etc/mysql/mariadb.conf.d
[ -d "$confdir" ] || confdir=/etc/mysql/conf.d
cat >"$confdir/90-dbrig.cnf" <<CNF
# written by dbrig-setup at every boot
[mysqld]
datadir = $datadir
bind-address = 0.0.0.0
port = {{&db_port}}
innodb_buffer_pool_size = {{&buffer_pool}}
{{&server_options}}CNF
systemctl start mariadb 2>/dev/null || systemctl start mysql
# The host calls the VM ready as soon as the server greets it, which it does
# once the driver's user exists: on MariaDB one GRANT creates the user together
# with its grant (and resets its password on a restored disk), so there is no
# moment when the user can log in but not use sbtest. MySQL 8 has no
# GRANT ... IDENTIFIED BY: there the user is created, then granted.
if command -v mariadb-install-db >/dev/null; then
	mysql -uroot <<SQL
CREATE DATABASE IF NOT EXISTS sbtest;
GRANT ALL ON sbtest.* TO '{{&db_user}}'@'%' IDENTIFIED BY '{{&db_password}}';
SQL
else
	mysql -uroot <<SQL
CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS '{{&db_user}}'@'%' IDENTIFIED BY '{{&db_password}}';
ALTER USER '{{&db_user}}'@'%' IDENTIFIED BY '{{&db_password}}';
GRANT ALL ON sbtest.* TO '{{&db_user}}'@'%';
SQL
fi
log "database ready on port {{&db_port}}"
