#!/usr/bin/env bash
# The guest setup script as a guest runs it, without QEMU (the QEMU e2e boots it for
# real, in 15 minutes): `dbrig provision --dry-run` on libvirt's test driver renders
# the seed of a campaign, and vm-templates/sysbench-setup.sh runs from the files its
# user-data writes, as root, in a private mount namespace (an overlay on /etc, a tmpfs
# on /srv: nothing of this machine changes) with stub commands for the disk, systemd
# and the MariaDB client, which record what they were asked to do.
#   security-review finding 3: server options reach the server's config as quoted data,
#     never as shell code: values that the old unquoted heredoc expanded as root ($(...),
#     backquotes) are copied as they are, and parameters outside their grammar stop the
#     script before anything runs;
#   finding 12: the server listens on the address of the NIC dbrig gave the VM (by its
#     MAC), not on every address, and the driver's user may log in from the NIC's
#     gateway (or .target.db_client) only, not from '%';
#   finding 20: the script and its parameter file are 0600;
# and the server reads back (my_print_defaults) what the campaign file said.
# needs: libvirt
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
trap cleanup_test EXIT

[ "$(id -u)" = 0 ] || skip_test "needs root (a private mount namespace)"
command -v unshare >/dev/null || skip_test "unshare (util-linux) missing"
command -v my_print_defaults >/dev/null || skip_test "my_print_defaults (mariadb-client) missing"
T=$TEST_TMP
mkdir -p "$T/bin" "$T/log"

cat >"$T/c.json" <<JSON
{"name": "gs", "description": "libvirt_guest_setup.sh",
 "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M",
            "server_options": {"innodb_flush_log_at_trx_commit": 2, "log_error": "/var/log/mysql/a #1.log",
                               "optimizer_switch": "index_merge=off,mrr=on"}},
 "target": {"kind": "libvirt", "hosts": {"t": "test:///default"}, "endpoint": "forward",
            "db_password": "pw-1234.abcd"},
 "drives": [{"name": "d1", "pool": "default-pool", "host": "t"}],
 "run_groups": [{"name": "g", "placement": {"d1": 1}}], "precondition": 0, "sample": "1s",
 "output": "$T/out"}
JSON
"$DBRIG_BIN" provision "$T/c.json" --dry-run >"$T/dry.out" 2>"$T/dry.err" || die "provision --dry-run: $(cat "$T/dry.err")"
# The seed's files, as cloud-init's write_files would write them (the dry run masks the
# password: the real one goes back in, as in the seed dbrig uploads).
# (Read with cloud-init's YAML loader, which is what the guest does; base64 content too,
# so that the checks below also say what an older dbrig's seed does.)
seed_files() { # seed_files DRY-RUN-OUTPUT DIR
	python3 - "$1" "$2" <<'PY'
import base64, os, sys, yaml
text = open(sys.argv[1]).read()
ud = text.split("user-data:\n", 1)[1].split("# meta-data:\n", 1)[0]
os.makedirs(sys.argv[2])
with open(os.path.join(sys.argv[2], "modes"), "w") as modes:
    for f in yaml.safe_load(ud)["write_files"]:
        content = f["content"]
        if f.get("encoding") == "b64":
            content = base64.b64decode(content).decode()
        name = os.path.basename(f["path"])
        open(os.path.join(sys.argv[2], name), "w").write(content.replace("********", "pw-1234.abcd"))
        modes.write("%s %s\n" % (f.get("permissions", "0644"), f["path"]))
PY
}
seed_files "$T/dry.out" "$T/seed"
S=$T/seed
check "the script is vm-templates/sysbench-setup.sh as it is (no campaign value in its code)" \
	cmp -s "$S/dbrig-setup.sh" "$DBRIG_SOURCE_DIR/vm-templates/sysbench-setup.sh"
check "... and the part it sources vm-templates/setup-common.sh" \
	cmp -s "$S/setup-common.sh" "$DBRIG_SOURCE_DIR/vm-templates/setup-common.sh"
check "finding 20: the script is 0600" grep -qx '0600 /usr/local/sbin/dbrig-setup.sh' "$S/modes"
check "finding 20: its parameter file is 0600" grep -qx '0600 /etc/dbrig/setup.conf' "$S/modes"
check "no file of the seed but setup.conf holds the password" \
	bash -c "[ \"\$(grep -l 'pw-1234.abcd' '$S'/* | xargs -n1 basename)\" = setup.conf ]"
for f in sysbench-setup.sh sqlserver-setup.sh setup-common.sh; do
	check "$f is valid sh" sh -n "$DBRIG_SOURCE_DIR/vm-templates/$f"
done
# shellcheck (warnings and errors) over the guest scripts, following the sourced part.
command -v shellcheck >/dev/null || fail "shellcheck is missing (apt-get install shellcheck)"
check "the guest scripts pass shellcheck -S warning" bash -c 'cd "$0/vm-templates" &&
	shellcheck -x -s sh -S warning sysbench-setup.sh sqlserver-setup.sh setup-common.sh' "$DBRIG_SOURCE_DIR"

# Stubs: each logs its argv (one line) to log/calls; mysql keeps its stdin.
stub() { # stub NAME BODY
	printf '#!/bin/sh\necho "%s $*" >>%s/log/calls\n%s\n' "$1" "$T" "$2" >"$T/bin/$1"
	chmod +x "$T/bin/$1"
}
stub systemctl 'exit 0'
stub lsblk 'echo "/dev/dbrig-test-disk dbrig-undertest"'
stub blkid 'exit 2'
stub mkfs.ext4 'exit 0'
stub mountpoint 'exit 1'
stub mount 'exit 0'
stub chown 'exit 0'
stub hostname 'echo d1-vm1'
stub mariadb-install-db 'for a; do case $a in --datadir=*) mkdir -p "${a#--datadir=}/mysql";; esac; done'
stub mysql "cat >>$T/log/sql"
# ip: the NIC with the seed's MAC, its address and gateway, as on QEMU user networking.
mac=$(sed -n 's/^mac=//p' "$S/setup.conf" 2>/dev/null) || true
stub ip "case \"\$*\" in
'-o link show') printf '1: lo: <LOOPBACK,UP> mtu 65536 state UNKNOWN\\\\    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\\n'
	printf '2: eth0: <BROADCAST,MULTICAST,UP> mtu 1500 state UP\\\\    link/ether 52:54:00:00:00:99 brd ff:ff:ff:ff:ff:ff\\n'
	printf '3: eth1: <BROADCAST,MULTICAST,UP> mtu 1500 state UP\\\\    link/ether $mac brd ff:ff:ff:ff:ff:ff\\n' ;;
'-4 -o addr show dev eth1 scope global') echo '3: eth1    inet 10.0.2.15/24 brd 10.0.2.255 scope global eth1' ;;
'-4 route show default dev eth1') echo 'default via 10.0.2.2 proto dhcp' ;;
*) exit 1 ;;
esac"

# guest ROOT-OF-SEED: run the script as the guest would, in a private mount namespace.
guest() {
	rm -rf "$T/etc-up" "$T/etc-work" "$T/local-up" "$T/local-work" "$T/log/calls" "$T/log/sql"
	mkdir -p "$T/etc-up" "$T/etc-work" "$T/local-up" "$T/local-work"
	unshare -m --propagation private bash -c '
		set -e
		T=$1 S=$2
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$T/etc-up,workdir=$T/etc-work" /etc
		mount -t overlay overlay -o "lowerdir=/usr/local,upperdir=$T/local-up,workdir=$T/local-work" /usr/local
		mount -t tmpfs tmpfs /srv
		rm -f /etc/hosts # as in the e2e image: the script creates it
		mkdir -p /etc/dbrig /etc/mysql/mariadb.conf.d /usr/local/lib/dbrig
		[ ! -f "$S/setup-common.sh" ] || install -m 0644 "$S/setup-common.sh" /usr/local/lib/dbrig/setup-common.sh
		[ ! -f "$S/setup.conf" ] || install -m 0600 "$S/setup.conf" /etc/dbrig/setup.conf
		[ ! -f "$S/server.cnf" ] || install -m 0644 "$S/server.cnf" /etc/dbrig/server.cnf
		set +e
		PATH=$T/bin:$PATH sh "$S/dbrig-setup.sh" >"$T/log/out" 2>&1
		echo $? >"$T/log/rc"
		cp /etc/mysql/mariadb.conf.d/90-dbrig.cnf "$T/log/90-dbrig.cnf" 2>/dev/null
		cp /etc/hosts "$T/log/hosts" 2>/dev/null
		stat -c %a /etc/hosts >"$T/log/hosts-mode" 2>/dev/null
		true
	' guest "$T" "$1"
}

guest "$S"
check "the script ran to its end (exit 0; output: $(tr '\n' '|' <"$T/log/out"))" [ "$(cat "$T/log/rc")" = 0 ]
cnf=$T/log/90-dbrig.cnf
check "the server config is server.cnf, then dbrig's datadir and address" \
	bash -c "head -n \$(wc -l <'$S/server.cnf') '$cnf' | cmp -s - '$S/server.cnf' && grep -qx 'datadir = /srv/dbrig-data/mysql' '$cnf'"
my_print_defaults --defaults-file="$cnf" mysqld >"$T/log/defaults"
check "the server reads engine.server_options back as written (quotes stripped, '#' kept)" \
	grep -qx -- '--log_error=/var/log/mysql/a #1.log' "$T/log/defaults"
check "the server reads optimizer_switch whole" grep -qx -- '--optimizer_switch=index_merge=off,mrr=on' "$T/log/defaults"
check "dbrig's port and buffer pool come after the options" \
	bash -c "grep -n -- '--innodb_flush_log_at_trx_commit=2' '$T/log/defaults' | grep -q '^1:' && grep -qx -- '--innodb_buffer_pool_size=67108864' '$T/log/defaults'"
check "finding 12: the server listens on the NIC with dbrig's MAC only" grep -qx 'bind-address = 10.0.2.15' "$cnf"
check "finding 12: ... not on every address" bash -c "! grep -q '0\.0\.0\.0' '$cnf'"
check "finding 12: the driver's user may log in from the NIC's gateway only, with the password, sent on the client's stdin" \
	grep -qx "GRANT ALL ON \`sbtest\`.\* TO 'dbrig'@'10.0.2.2' IDENTIFIED BY 'pw-1234.abcd';" "$T/log/sql"
check "the workload's database (db_name) is created" grep -qx 'CREATE DATABASE IF NOT EXISTS `sbtest`;' "$T/log/sql"
check "finding 12: no grant to '%'" bash -c "! grep -q \"'%'\" '$T/log/sql'"
check "the password is on no command line" bash -c "! grep -q 'pw-1234' '$T/log/calls'"
check "the hostname is resolvable" grep -qx '127.0.1.1 d1-vm1' "$T/log/hosts"
check "... from an /etc/hosts every user can read (0644)" [ "$(cat "$T/log/hosts-mode")" = 644 ]
check "the under-test disk was formatted and mounted" \
	bash -c "grep -q '^mkfs.ext4 .*/dev/dbrig-test-disk' '$T/log/calls' && grep -q '^mount -o noatime /dev/dbrig-test-disk /srv/dbrig-data' '$T/log/calls'"

# Finding 12, .target.db_client: the grant goes to that network (dbrig writes a.b.c.d/n
# in the netmask form MariaDB and MySQL match).
sed "s/\"endpoint\": \"forward\",/\"endpoint\": \"forward\", \"db_client\": \"192.168.7.0\/24\",/" "$T/c.json" >"$T/c2.json"
"$DBRIG_BIN" provision "$T/c2.json" --dry-run >"$T/dry2.out" 2>&1 || die "provision --dry-run (db_client): $(cat "$T/dry2.out")"
seed_files "$T/dry2.out" "$T/client"
guest "$T/client"
check "db_client: the script ran (exit 0)" [ "$(cat "$T/log/rc")" = 0 ]
check "db_client: the grant is for that network" \
	grep -qx "GRANT ALL ON \`sbtest\`.\* TO 'dbrig'@'192.168.7.0/255.255.255.0' IDENTIFIED BY 'pw-1234.abcd';" "$T/log/sql"

# Issue 11 item 2: a TPC-C campaign on a MariaDB guest gets its own database (tpcc), and a
# SQL Server guest's parameters name it too (its script is only checked for syntax here).
sed 's/"workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1}}/"workload": {"kind": "tpcc", "options": {"warehouses": 1}}/' "$T/c.json" >"$T/c3.json"
"$DBRIG_BIN" provision "$T/c3.json" --dry-run >"$T/dry3.out" 2>&1 || die "provision --dry-run (tpcc): $(cat "$T/dry3.out")"
seed_files "$T/dry3.out" "$T/tpcc"
guest "$T/tpcc"
check "tpcc: the script ran (exit 0)" [ "$(cat "$T/log/rc")" = 0 ]
check "tpcc: the database tpcc is created and granted" \
	bash -c "grep -qx 'CREATE DATABASE IF NOT EXISTS \`tpcc\`;' '$T/log/sql' && grep -qx \"GRANT ALL ON \\\`tpcc\\\`.\\* TO 'dbrig'@'10.0.2.2' IDENTIFIED BY 'pw-1234.abcd';\" '$T/log/sql'"
# SQL Server takes max_server_memory_mb (applied with sp_configure) and no MySQL option.
python3 - "$T/c3.json" "$T/c4.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["engine"] = {"kind": "sqlserver", "buffer_pool": "64M", "server_options": {"max_server_memory_mb": 2048}}
c["target"]["template"] = "sqlserver"
c["target"]["db_password"] = "pw-1234.abcdEF"
c["target"]["sqlserver_trust_server_certificate"] = True
json.dump(c, open(sys.argv[2], "w"))
PY
# Its preflight asks the ODBC driver manager for the driver: registered here, never loaded.
mkdir -p "$T/odbc" && printf '[ODBC Driver 18 for SQL Server]\nDriver=/nonexistent/libmsodbcsql.so\n' >"$T/odbc/odbcinst.ini"
ODBCSYSINI=$T/odbc "$DBRIG_BIN" provision "$T/c4.json" --dry-run >"$T/dry4.out" 2>&1 || die "provision --dry-run (sqlserver): $(cat "$T/dry4.out")"
seed_files "$T/dry4.out" "$T/mssql"
check "sqlserver: the script is vm-templates/sqlserver-setup.sh" cmp -s "$T/mssql/dbrig-setup.sh" "$DBRIG_SOURCE_DIR/vm-templates/sqlserver-setup.sh"
check "sqlserver: its parameters name the database tpcc" grep -qx 'db_name=tpcc' "$T/mssql/setup.conf"
check "sqlserver: the port is SQL Server's 1433 by default" grep -qx 'db_port=1433' "$T/mssql/setup.conf"
check "sqlserver: max_server_memory_mb reaches the setup's parameters" grep -qx 'max_server_memory_mb=2048' "$T/mssql/setup.conf"

# Finding 3 with the campaign checks bypassed: hostile option lines in server.cnf are
# copied, never run; a parameter outside its grammar stops the script before any SQL.
cp -r "$S" "$T/evil"
printf 'log_error = /x/$(touch %s/PWNED).log\ngeneral_log_file = `touch %s/PWNED`\n' "$T" "$T" >>"$T/evil/server.cnf"
guest "$T/evil"
check "hostile server.cnf: the script still ran (exit 0)" [ "$(cat "$T/log/rc")" = 0 ]
check "hostile server.cnf: nothing ran" [ ! -e "$T/PWNED" ]
check "hostile server.cnf: the lines are in the server config as they were" \
	grep -qxF "log_error = /x/\$(touch $T/PWNED).log" "$cnf"
cp -r "$S" "$T/evil2"
sed -i "s|^db_password=.*|db_password=x';\$(touch $T/PWNED2)|" "$T/evil2/setup.conf"
guest "$T/evil2"
check "a password outside the grammar stops the script (exit 1)" [ "$(cat "$T/log/rc")" = 1 ]
check "... naming the parameter" grep -q 'db_password holds a character outside' "$T/log/out"
check "... before any SQL" [ ! -s "$T/log/sql" ]
check "... and nothing ran" [ ! -e "$T/PWNED2" ]
cp -r "$S" "$T/evil3"
echo 'db_port=3306;touch /PWNED' >>"$T/evil3/setup.conf"
guest "$T/evil3"
check "a later value outside the grammar wins no pass (exit 1)" [ "$(cat "$T/log/rc")" = 1 ]
cp "$S/setup.conf" "$T/evil3/setup.conf"
sed -i 's|^db_name=.*|db_name=x`;DROP DATABASE mysql;--|' "$T/evil3/setup.conf"
guest "$T/evil3"
check "a db_name outside the grammar stops the script before any SQL" \
	bash -c "[ \"\$(cat '$T/log/rc')\" = 1 ] && grep -q 'db_name is not' '$T/log/out' && [ ! -s '$T/log/sql' ]"
echo 'db_hack=1' >"$T/evil3/setup.conf"
guest "$T/evil3"
check "an unknown parameter stops the script" bash -c "[ \"\$(cat '$T/log/rc')\" = 1 ] && grep -q 'unexpected line db_hack' '$T/log/out'"
finish
