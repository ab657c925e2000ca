#!/bin/sh
# dbrig guest setup for SQL Server on Linux (vm-templates/sqlserver-setup.sh, installed as
# it is: nothing of a campaign file is pasted into this code; Ubuntu 22.04 cloud image with
# Microsoft's mssql-server package, installed by user-data). Idempotent, runs at every boot
# from dbrig-setup.service. Its parameters are data in /etc/dbrig/setup.conf (0600, written
# by the user-data), read and checked by setup-common.sh.
#   - the under-test disk (serial dbrig-undertest) gets a file system when it has none and is
#     mounted on /srv/dbrig-data; data and log files live in /srv/dbrig-data/mssql
#   - SQL Server's memory limit is the buffer pool (plus 2 GB), 'max server memory (MB)' is
#     engine.server_options.max_server_memory_mb when set (sp_configure), its port db_port
#     (1433 unless the campaign sets another), and it listens on the
#     IPv4 address of the NIC with the MAC dbrig gave the VM only
#   - the driver's login db_user is created (sysadmin) with db_password, and the workload's
#     database db_name exists: created empty on a fresh disk, its data and log files
#     pre-sized to data_size_mb / log_size_mb when set (growing by 1 GB beyond), and on a
#     restored (cloned) disk whose files this instance's master does not know yet,
#     attached from them; its recovery model is set to recovery at every boot when set
#     (the result's engine.settings record it and the files' sizes)
# Not boot-tested by dbrig's CI (no SQL Server image there); the Windows Server 2012 R2 /
# SQL Server 2014 case of the published runs is in vm-templates/windows-sqlserver.md.
# shellcheck source=setup-common.sh
. /usr/local/lib/dbrig/setup-common.sh
# T-SQL quoting: a string literal doubles ', an identifier in [] doubles ] (the grammar
# setup-common.sh checks leaves neither; doubling keeps them literals if it ever grows one).
tsql_str() { printf "N'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
tsql_ident() { printf '[%s]' "$(printf '%s' "$1" | sed 's/]/]]/g')"; }

# SQL Server listens on the IPv4 address of the NIC dbrig gave the VM only (security-review
# finding 12). Its logins cannot be limited to a client host: db_client has no use here.
# shellcheck disable=SC2119 # dbrig_nic's argument is optional: no gateway needed here
dbrig_nic

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
# The database's files live on the under-test disk; a clone of vm1's golden disk carries
# them, and another VM's master must attach them (SQL Server keeps the list in master,
# on the boot disk).
mdf=/srv/dbrig-data/mssql/$db_name.mdf
ldf=/srv/dbrig-data/mssql/${db_name}_log.ldf
if [ -f "$mdf" ]; then
	make_db="CREATE DATABASE $(tsql_ident "$db_name") ON (FILENAME = $(tsql_str "$mdf")), (FILENAME = $(tsql_str "$ldf")) FOR ATTACH;"
elif [ -n "$data_size_mb$log_size_mb" ]; then
	make_db="CREATE DATABASE $(tsql_ident "$db_name") ON (NAME = $(tsql_str "$db_name"), FILENAME = $(tsql_str "$mdf")${data_size_mb:+, SIZE = ${data_size_mb}MB}, FILEGROWTH = 1024MB) LOG ON (NAME = $(tsql_str "${db_name}_log"), FILENAME = $(tsql_str "$ldf")${log_size_mb:+, SIZE = ${log_size_mb}MB}, FILEGROWTH = 1024MB);"
else
	make_db="CREATE DATABASE $(tsql_ident "$db_name");"
fi
printf '%s\n' "IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = $(tsql_str "$db_user"))" \
	"  CREATE LOGIN $(tsql_ident "$db_user") WITH PASSWORD = $(tsql_str "$db_password"), CHECK_POLICY = OFF;" \
	"ALTER SERVER ROLE sysadmin ADD MEMBER $(tsql_ident "$db_user");" \
	"IF DB_ID($(tsql_str "$db_name")) IS NULL $make_db" "GO" >"$batch"
[ -z "$recovery" ] || printf '%s\n' "ALTER DATABASE $(tsql_ident "$db_name") SET RECOVERY $recovery;" "GO" >>"$batch"
# engine.server_options.max_server_memory_mb, applied at every boot (RECONFIGURE takes it
# without a restart); the result's server settings record what the server then runs with.
if [ -n "$max_server_memory_mb" ]; then
	printf '%s\n' "EXEC sp_configure 'show advanced options', 1;" "RECONFIGURE;" \
		"EXEC sp_configure 'max server memory (MB)', $max_server_memory_mb;" "RECONFIGURE;" >>"$batch"
fi
/opt/mssql-tools18/bin/sqlcmd -C -S "127.0.0.1,$db_port" -U sa -b -i "$batch"
log "SQL Server ready on port $db_port, database $db_name"
