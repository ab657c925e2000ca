# dbrig guest setup, the part every <template>-setup.sh shares (vm-templates/setup-common.sh,
# installed as it is as /usr/local/lib/dbrig/setup-common.sh and sourced by the script).
# It reads the script's parameters from /etc/dbrig/setup.conf (0600, written by dbrig's
# user-data) as data, never as code, and checks every value against the grammar dbrig
# checked the campaign file with; a value outside it stops the setup before anything runs:
#   db_user      [A-Za-z0-9_]+           db_password  [A-Za-z0-9._+=@%:,~-]+
#   db_name      [A-Za-z0-9_]+ (the workload's database: sbtest, tpcc)
#   db_client    empty, a.b.c.d or a.b.c.d/m.m.m.m (empty: the NIC's gateway)
#   mac          the MAC of the NIC dbrig gave the VM
#   db_port, buffer_pool   digits
#   max_server_memory_mb   empty or digits (SQL Server only: sp_configure 'max server memory (MB)')
#   data_size_mb, log_size_mb   empty or digits (SQL Server only: the database's files pre-sized)
#   recovery     empty, SIMPLE, FULL or BULK_LOGGED (SQL Server only: the database's recovery model)
# Then it finds that NIC: dbrig_nic sets nic, addr (its IPv4 address) and gateway.
set -eu
log() { echo "dbrig-setup: $*"; }
die() { log "$*" >&2; exit 1; }
conf=/etc/dbrig/setup.conf
[ -f "$conf" ] || die "$conf is missing (cloud-init writes it from dbrig's user-data)"
db_user='' db_name='' db_password='' db_client='' mac='' db_port='' buffer_pool='' max_server_memory_mb=''
data_size_mb='' log_size_mb='' recovery=''
while IFS= read -r line || [ -n "$line" ]; do
	case $line in
	'' | '#'*) ;;
	db_user=*) db_user=${line#*=} ;;
	db_name=*) db_name=${line#*=} ;;
	db_password=*) db_password=${line#*=} ;;
	db_client=*) db_client=${line#*=} ;;
	mac=*) mac=${line#*=} ;;
	db_port=*) db_port=${line#*=} ;;
	buffer_pool=*) buffer_pool=${line#*=} ;;
	max_server_memory_mb=*) max_server_memory_mb=${line#*=} ;;
	data_size_mb=*) data_size_mb=${line#*=} ;;
	log_size_mb=*) log_size_mb=${line#*=} ;;
	recovery=*) recovery=${line#*=} ;;
	*) die "$conf: unexpected line ${line%%=*} (expected db_user, db_name, db_password, db_client, mac, db_port, buffer_pool, max_server_memory_mb, data_size_mb, log_size_mb or recovery)" ;;
	esac
done <"$conf"
case $db_user in '' | *[!A-Za-z0-9_]*) die "$conf: db_user is not [A-Za-z0-9_]+" ;; esac
case $db_name in '' | *[!A-Za-z0-9_]*) die "$conf: db_name is not [A-Za-z0-9_]+" ;; esac
case $db_password in '' | *[!A-Za-z0-9._+=@%:,~-]*) die "$conf: db_password holds a character outside [A-Za-z0-9._+=@%:,~-]" ;; esac
case $db_client in *[!0-9./]*) die "$conf: db_client is not an IPv4 address or address/netmask" ;; esac
case $mac in '' | *[!0-9a-f:]*) die "$conf: mac is not a MAC address" ;; esac
case $db_port in '' | *[!0-9]*) die "$conf: db_port is not a number" ;; esac
case $buffer_pool in '' | *[!0-9]*) die "$conf: buffer_pool is not a number" ;; esac
case $max_server_memory_mb in *[!0-9]*) die "$conf: max_server_memory_mb is not a number" ;; esac
case $data_size_mb in *[!0-9]*) die "$conf: data_size_mb is not a number" ;; esac
case $log_size_mb in *[!0-9]*) die "$conf: log_size_mb is not a number" ;; esac
case $recovery in '' | SIMPLE | FULL | BULK_LOGGED) ;; *) die "$conf: recovery is not SIMPLE, FULL or BULK_LOGGED" ;; esac

# dbrig_nic [gateway]: the NIC with the seed's MAC, its IPv4 address and (when asked) its
# default gateway, waiting up to 120 s for DHCP; stops the setup when one does not come.
dbrig_nic() {
	nic='' addr='' gateway=''
	for _ in $(seq 1 120); do
		nic=$(ip -o link show | awk -v m="$mac" '$0 ~ "link/ether " m " " { sub(":$", "", $2); sub("@.*", "", $2); print $2; exit }')
		if [ -n "$nic" ]; then
			addr=$(ip -4 -o addr show dev "$nic" scope global | awk '{ sub("/.*", "", $4); print $4; exit }')
			[ -z "${1:-}" ] || gateway=$(ip -4 route show default dev "$nic" | awk '$1 == "default" { print $3; exit }')
		fi
		[ -n "$addr" ] && { [ -z "${1:-}" ] || [ -n "$gateway" ]; } && break
		sleep 1
	done
	[ -n "$nic" ] || die "no network interface with MAC $mac"
	[ -n "$addr" ] || die "$nic ($mac) has no IPv4 address"
	[ -z "${1:-}" ] || [ -n "$gateway" ] || die "$nic has no default gateway to allow the driver from (set .target.db_client)"
	case $addr$gateway in *[!0-9.]*) die "$nic: \"$addr\" / \"$gateway\" is not an IPv4 address" ;; esac
}
