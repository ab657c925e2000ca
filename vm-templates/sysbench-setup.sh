#!/bin/sh
# dbrig guest setup (vm-templates/sysbench-setup.sh, installed as it is: nothing of a
# campaign file is pasted into this code). It runs at every boot from
# dbrig-setup.service, which cloud-init installs from dbrig's user-data, and is
# idempotent (cloud-init sets the hostname). Its parameters are data in files the
# user-data writes:
#   /etc/dbrig/setup.conf (0600)  name=value lines, read and checked by setup-common.sh
#   /etc/dbrig/server.cnf (0644)  the [mysqld] options (engine.server_options, then
#                                 port and buffer pool), rendered and quoted by dbrig;
#                                 copied, never expanded
# What it does:
#   - the under-test disk (serial dbrig-undertest) gets a file system when it has none
#     (a fresh VM); a restored disk already holds the golden database and is used as it is
#   - it is mounted on /srv/dbrig-data; the database's datadir is /srv/dbrig-data/mysql
#   - the server config is server.cnf plus the datadir and the listening address: the
#     IPv4 address of the NIC with the MAC dbrig gave the VM
#   - the driver's user db_user owns the workload's database db_name (sbtest, tpcc) and may
#     log in from db_client only (default: that NIC's gateway)
# The pre-built disk (serial dbrig-prebuilt) is never mounted in the guest: the host clones it.
# shellcheck source=setup-common.sh
. /usr/local/lib/dbrig/setup-common.sh
[ -f /etc/dbrig/server.cnf ] || die "/etc/dbrig/server.cnf is missing (cloud-init writes it from dbrig's user-data)"
# A value as an SQL string literal: the grammar setup-common.sh checks leaves no quote to
# double, and doubling keeps it a literal if the grammar ever grows one.
sql_str() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# shellcheck disable=SC2016 # the backquotes are MySQL's identifier quotes, not a command
sql_ident() { printf '`%s`' "$(printf '%s' "$1" | sed 's/`/``/g')"; }

# The server listens on the IPv4 address of the NIC dbrig gave the VM only, and the
# driver may log in from db_client only, by default that NIC's gateway, where QEMU user
# networking's forwarded connections and the KVM host on a libvirt NAT network come from
# (never every address, never from '%').
if [ -n "$db_client" ]; then dbrig_nic; client=$db_client; else dbrig_nic gateway; client=$gateway; fi

# mariadb-install-db wants the hostname resolvable.
host=$(hostname)
case $host in '' | *[!A-Za-z0-9.-]*) die "hostname \"$host\" is not [A-Za-z0-9.-]+" ;; esac
grep -qs " $host\$" /etc/hosts || printf '127.0.1.1 %s\n' "$host" >>/etc/hosts
# Socket activation or an enabled unit may have started the server on the image's datadir.
systemctl stop mariadb.socket mariadb.service mysql.service 2>/dev/null || true

disk=
for _ in $(seq 1 60); do
	disk=$(lsblk -dnpo NAME,SERIAL | awk '$2 == "dbrig-undertest" { print $1 }')
	[ -n "$disk" ] && break
	sleep 1
done
[ -n "$disk" ] || die "no disk with serial dbrig-undertest (is the controller visible to this kernel?)"
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
# dbrig's own settings come last, so they win over any server option of the same name.
{
	cat /etc/dbrig/server.cnf
	printf 'datadir = %s\nbind-address = %s\n' "$datadir" "$addr"
} >"$confdir/90-dbrig.cnf"
chmod 644 "$confdir/90-dbrig.cnf"
systemctl start mariadb 2>/dev/null || systemctl start mysql
# The host calls the VM ready once the server greets it and the driver's user
# logs into db_name (dbrig <workload> ping): on MariaDB one GRANT creates the
# user together with its grant (and resets its password on a restored disk), so
# there is no moment when the user can log in but not use db_name. MySQL 8 has no
# GRANT ... IDENTIFIED BY: there the user is created, then granted. The SQL goes
# to the client on stdin (printf is a shell builtin: the password is in no argv).
user="$(sql_str "$db_user")@$(sql_str "$client")"
pw=$(sql_str "$db_password")
db=$(sql_ident "$db_name")
if command -v mariadb-install-db >/dev/null; then
	printf '%s\n' "CREATE DATABASE IF NOT EXISTS $db;" \
		"GRANT ALL ON $db.* TO $user IDENTIFIED BY $pw;" | mysql -uroot
else
	printf '%s\n' "CREATE DATABASE IF NOT EXISTS $db;" \
		"CREATE USER IF NOT EXISTS $user IDENTIFIED BY $pw;" \
		"ALTER USER $user IDENTIFIED BY $pw;" \
		"GRANT ALL ON $db.* TO $user;" | mysql -uroot
fi
log "database $db_name ready on $addr port $db_port for $db_user from $client"
