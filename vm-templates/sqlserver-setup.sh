#!/bin/sh
# dbrig guest setup for SQL Server on Linux, {{&drive}}/{{&instance}} of campaign {{&campaign}}
# (rendered from vm-templates/sqlserver-setup.sh; Ubuntu 22.04 cloud image with Microsoft's
# mssql-server package, installed by user-data). Idempotent, runs at every boot:
#   - the under-test disk (serial dbrig-undertest) gets a file system when it has none and is
#     mounted on /srv/dbrig-data; data and log files live in /srv/dbrig-data/mssql
#   - SQL Server's memory limit is the buffer pool ({{&buffer_pool}} bytes), port {{&db_port}}
#   - the driver's login {{&db_user}} is created (sysadmin) with the configured password
# Not boot-tested by dbrig's CI (no SQL Server image there); the Windows Server 2012 R2 /
# SQL Server 2014 case of the published runs is in vm-templates/windows-sqlserver.md.
set -eu
log() { echo "dbrig-setup: $*"; }
hostname '{{&hostname}}' 2>/dev/null || true
echo '{{&hostname}}' >/etc/hostname
disk=
for _ in $(seq 1 60); do
	disk=$(lsblk -dnpo NAME,SERIAL | awk '$2 == "dbrig-undertest" { print $1 }')
	[ -n "$disk" ] && break
	sleep 1
done
[ -n "$disk" ] || { log "no disk with serial dbrig-undertest" >&2; exit 1; }
blkid "$disk" >/dev/null 2>&1 || mkfs.xfs -q -L dbrig-data "$disk"
mkdir -p /srv/dbrig-data
mountpoint -q /srv/dbrig-data || mount -o noatime "$disk" /srv/dbrig-data
mkdir -p /srv/dbrig-data/mssql
chown mssql:mssql /srv/dbrig-data/mssql
conf=/opt/mssql/bin/mssql-conf
if [ ! -f /var/opt/mssql/.dbrig-configured ]; then
	MSSQL_SA_PASSWORD='{{&db_password}}' MSSQL_PID=Developer ACCEPT_EULA=Y $conf -n setup
	$conf set filelocation.defaultdatadir /srv/dbrig-data/mssql
	$conf set filelocation.defaultlogdir /srv/dbrig-data/mssql
	$conf set network.tcpport {{&db_port}}
	$conf set memory.memorylimitmb $(({{&buffer_pool}} / 1048576 + 2048))
	touch /var/opt/mssql/.dbrig-configured
fi
systemctl restart mssql-server
for _ in $(seq 1 120); do
	/opt/mssql-tools18/bin/sqlcmd -C -S 127.0.0.1,{{&db_port}} -U sa -P '{{&db_password}}' -Q "SELECT 1" >/dev/null 2>&1 && break
	sleep 1
done
/opt/mssql-tools18/bin/sqlcmd -C -S 127.0.0.1,{{&db_port}} -U sa -P '{{&db_password}}' -Q "
IF NOT EXISTS (SELECT 1 FROM sys.server_principals WHERE name = '{{&db_user}}')
  CREATE LOGIN [{{&db_user}}] WITH PASSWORD = '{{&db_password}}', CHECK_POLICY = OFF;
ALTER SERVER ROLE sysadmin ADD MEMBER [{{&db_user}}];"
log "SQL Server ready on port {{&db_port}}"
