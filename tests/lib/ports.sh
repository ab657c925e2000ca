# TCP ports on 127.0.0.1 for the tests' servers (source it).
#   port_in_use PORT     true when something accepts connections on PORT
#   free_port_block N    prints the first of N consecutive ports nothing listens
#                        on, from 20000 up to the kernel's ephemeral range
#                        (ip_local_port_range): a port there can be the local end
#                        of any connection on a busy machine, and a server's bind
#                        then fails although nothing listens; fails with one line
#                        after 200 tries

port_in_use() { (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }

free_port_block() {
	local n=$1 p k ok lo=32768 span
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || lo=32768
	span=$((lo - 20000 - n))
	[ "$span" -gt 1000 ] || span=30000 # a kernel range that starts low: the old high range
	for _ in $(seq 1 200); do
		p=$((20000 + RANDOM % span)); ok=1
		for ((k = 0; k < n; k++)); do port_in_use $((p + k)) && { ok=0; break; }; done
		[ $ok = 1 ] && { echo "$p"; return 0; }
	done
	echo "no block of $n free ports on 127.0.0.1" >&2
	return 1
}
