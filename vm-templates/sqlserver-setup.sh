#!/bin/sh
# dbrig guest setup for SQL Server on Linux (vm-templates/sqlserver-setup.sh, installed as
# it is: nothing of a campaign file is pasted into this code; Ubuntu 22.04 cloud image with
# Microsoft's mssql-server package, installed by user-data). Idempotent, runs at every boot
# from dbrig-setup.service. Its parameters are data in /etc/dbrig/setup.conf (0600, written
# by the user-data): db_user, db_password, db_client, mac, db_port, buffer_pool, each checked
# below against the grammar dbrig checked the campaign file with.
#   - the under-test disk (serial dbrig-undertest) gets a file system when it has none and is
#     mounted on /srv/dbrig-data; data and log files live in /srv/dbrig-data/mssql
#   - SQL Server's memory limit is the buffer pool, its port db_port, and it listens on the
#     IPv4 address of the NIC with the MAC dbrig gave the VM only
#   - the driver's login db_user is created (sysadmin) with db_password
# Not boot-tested by dbrig's CI (no SQL Server image there); the Windows Server 2012 R2 /
# SQL Server 2014 case of the published runs is in vm-templates/windows-sqlserver.md.
set -eu
umask 077
log() { echo "dbrig-setup: $*"; }
die() { log "$*" >&2; exit 1; }
conf=/etc/dbrig/setup.conf
[ -f "$conf" ] || die "$conf is missing (cloud-init writes it from dbrig's user-data)"
db_user= db_password= db_client= mac= db_port= buffer_pool=
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'' | '#'*) ;;
	db_user=*) db_user=${line#*=} ;;
	db_password=*) db_password=${line#*=} ;;
	db_client=*) db_client=${line#*=} ;;
	mac=*) mac=${line#*=} ;;
	db_port=*) db_port=${line#*=} ;;
	buffer_pool=*) buffer_pool=${line#*=} ;;
	*) die "$conf: unexpected line ${line%%=*} (expected db_user, db_password, db_client, mac, db_port or buffer_pool)" ;;
	esac
done <"$conf"
case $db_user in '' | *[!A-Za-z0-9_]*) die "$conf: db_user is not [A-Za-z0-9_]+" ;; esac
case $db_password in '' | *[!A-Za-z0-9._+=@%:,~-]*) die "$conf: db_password holds a character outside [A-Za-z0-9._+=@%:,~-]" ;; esac
case $db_client in *[!0-9./]*) die "$conf: db_client is not an IPv4 address or address/netmask" ;; esac
case $mac in '' | *[!0-9a-f:]*) die "$conf: mac is not a MAC address" ;; esac
case $db_port in '' | *[!0-9]*) die "$conf: db_port is not a number" ;; esac
case $buffer_pool in '' | *[!0-9]*) die "$conf: buffer_pool is not a number" ;; esac
# T-SQL quoting: a string literal doubles ', an identifier in [] doubles ] (the grammar
# above leaves neither; doubling keeps them literals if it ever grows one).
tsql_str() { printf "N'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
tsql_ident() { printf '[%s]' "$(printf '%s' "$1" | sed 's/]/]]/g')"; }

# The NIC dbrig gave the VM (by its MAC): SQL Server listens on its IPv4 address only
# (security-review finding 12). SQL Server logins cannot be limited to a client host,
# so db_client is checked but has no use here.
nic= addr=
for _ in $(seq 1 120); do
	nic=$(ip -o link show | awk -v m="$mac" '$0 ~ "link/ether " m " " { sub(":$", "", $2); sub("@.*", "", $2); print $2; exit }')
	[ -n "$nic" ] && addr=$(ip -4 -o addr show dev "$nic" scope global | awk '{ sub("/.*", "", $4); print $4; exit }')
	[ -n "$addr" ] && break
	sleep 1
done
[ -n "$nic" ] || die "no network interface with MAC $mac"
[ -n "$addr" ] || die "$nic ($mac) has no IPv4 address"
case $addr in *[!0-9.]*) die "$nic: \"$addr\" is not an IPv4 address" ;; esac

disk=
for _ in $(seq 1 60); do
	disk=$(lsblk -dnpo NAME,SERIAL | awk '$2 == "dbrig-undertest" { print $1 }')
	[ -n "$disk" ] && break
	sleep 1
done
[ -n "$disk" ] || die "no disk with serial dbrig-undertest"
blkid "$disk" >/dev/null 2>&1 || mkfs.xfs -q -L dbrig-data "$disk"
mkdir -p /srv/dbrig-data
mountpoint -q /srv/dbrig-data || mount -o noatime "$disk" /srv/dbrig-data
mkdir -p /srv/dbrig-data/mssql
chown mssql:mssql /srv/dbrig-data/mssql
conf_tool=/opt/mssql/bin/mssql-conf
if [ ! -f /var/opt/mssql/.dbrig-configured ]; then
	MSSQL_SA_PASSWORD=$db_password MSSQL_PID=Developer ACCEPT_EULA=Y $conf_tool -n setup
	$conf_tool set filelocation.defaultdatadir /srv/dbrig-data/mssql
	$conf_tool set filelocation.defaultlogdir /srv/dbrig-data/mssql
	$conf_tool set network.tcpport "$db_port"
	$conf_tool set memory.memorylimitmb $((buffer_pool / 1048576 + 2048))
	touch /var/opt/mssql/.dbrig-configured
fi
$conf_tool set network.ipaddress "$addr"
systemctl restart mssql-server
# sqlcmd takes the password from SQLCMDPASSWORD and the batch from a 0600 file: neither
# is on a command line another guest user could read.
export SQLCMDPASSWORD="$db_password"
for _ in $(seq 1 120); do
	/opt/mssql-tools18/bin/sqlcmd -C -S "127.0.0.1,$db_port" -U sa -Q "SELECT 1" >/dev/null 2>&1 && break
	sleep 1
done
batch=$(mktemp)
trap 'rm -f "$batch"' EXIT
printf '%s\n' "IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = $(tsql_str "$db_user"))" \
	"  CREATE LOGIN $(tsql_ident "$db_user") WITH PASSWORD = $(tsql_str "$db_password"), CHECK_POLICY = OFF;" \
	"ALTER SERVER ROLE sysadmin ADD MEMBER $(tsql_ident "$db_user");" >"$batch"
/opt/mssql-tools18/bin/sqlcmd -C -S "127.0.0.1,$db_port" -U sa -b -i "$batch"
log "SQL Server ready on port $db_port"
