# TCP ports on 127.0.0.1 for the tests' servers (source it).
#   port_in_use PORT     true when something accepts connections on PORT
#   free_port_block N    prints the first of N consecutive ports nothing listens
#                        on, in a high range; fails with one line after 200 tries

port_in_use() { (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }

free_port_block() {
	local n=$1 p k ok
	for _ in $(seq 1 200); do
		p=$((20000 + RANDOM % 30000)); ok=1
		for ((k = 0; k < n; k++)); do port_in_use $((p + k)) && { ok=0; break; }; done
		[ $ok = 1 ] && { echo "$p"; return 0; }
	done
	echo "no block of $n free ports on 127.0.0.1" >&2
	return 1
}
