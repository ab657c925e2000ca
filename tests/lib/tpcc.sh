# The TPC-C integration suite, shared by the three driver paths. Source after
# common.sh; call tpcc_suite NAME ARGS... where ARGS are the connection options.
# prepare 2 warehouses, check, run closed loop, run with delays, check again,
# and the mix and counts within the spec's bounds; then each consistency
# condition broken in turn (TPCC_SQL names a function that runs one SQL
# statement on the suite's database as its owner or a superuser).

tpcc_mix_ok() { # tpcc_mix_ok RESULT.json [SLACK]
	# Each terminal draws its transaction types from its own shuffled 23-card deck
	# (10 new-order, 10 payment, 1 each of the others), so a long closed-loop run
	# meets the spec's minimum shares exactly. A short delayed run (20 terminals,
	# ~30 transactions each, the sample phase starting mid-deck) does not: a
	# terminal may see no delivery card in its sample at all. SLACK (default 1)
	# scales the minimum shares down for such runs.
	python3 - "$1" "${2:-1}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
slack = float(sys.argv[2])
s = r["phases"]["sample"]
t = s["types"]
n = s["transactions"]
no = t["new_order"]["count"] + t["new_order_rollback"]["count"]
ok = True
def need(cond, what):
    global ok
    if not cond:
        print("mix: " + what, file=sys.stderr); ok = False
need(r["status"] == "complete", "status " + r["status"])
need(n >= 100, "only %d transactions" % n)
need(sum(v["count"] for v in t.values()) == n, "type counts do not add up to %d" % n)
need(t["payment"]["count"] >= 0.40 * slack * n, "payment %d of %d" % (t["payment"]["count"], n))
for k in ("order_status", "delivery", "stock_level"):
    need(t[k]["count"] >= 0.03 * slack * n, "%s %d of %d" % (k, t[k]["count"], n))
need(no >= 0.40 * slack * n, "new_order %d of %d" % (no, n))
need(t["new_order_rollback"]["count"] <= 0.05 * no, "rollbacks %d of %d" % (t["new_order_rollback"]["count"], no))
need(s["errors"]["fatal"] == 0, "fatal errors")
need(r["workload"]["params"]["terminals"] >= 1, "terminals")
sys.exit(0 if ok else 1)
PY
}

# tpcc_sessions_check NAME N COUNT_FN ARGS...: --connections=terminals with N
# terminals must open N server sessions (COUNT_FN prints the sessions the
# server has open; it is polled while the run lasts) and run on them.
tpcc_sessions_check() {
	local name=$1 n=$2 count_fn=$3; shift 3
	local out=$TEST_TMP/$name.sess peak=0 c pid t0=$SECONDS
	"$DBRIG_BIN" tpcc "$@" --connections=terminals --terminals="$n" --delays=scale:0.5 --time=4 \
		--result="$out.json" run >"$out.out" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		c=$("$count_fn" 2>/dev/null) || c=0
		[ "${c:-0}" -gt "$peak" ] && peak=$c
		sleep 0.5
	done
	wait "$pid" || { cat "$out.out" >&2; fail "$name: $n terminals as $n sessions"; return; }
	echo "$name: $n terminals as $n sessions: $(grep -m1 '^connected' "$out.out"), $(grep -m1 '^closed' "$out.out" || echo closed in under 1s), whole run $((SECONDS - t0)) s, peak $peak sessions"
	check "$name: $n sessions connected before the clock" grep -q "^connected $n sessions in " "$out.out"
	check "$name: the server had $n sessions open at once (peak $peak)" [ "$peak" -ge "$n" ]
	check "$name: the per-terminal result" python3 -c "
import json, sys
r = json.load(open(sys.argv[1])); p = r['workload']['params']; s = r['phases']['sample']
n = int(sys.argv[2])
assert p['sessions'] == 'terminals' and p['connections'] == n and p['terminals'] == n, p
assert s['transactions'] > 0 and s['errors']['fatal'] == 0, s['errors']
assert s['conn_wait']['pool_capped'] is False, s['conn_wait']
" "$out.json" "$n"
}

tpcc_suite() {
	local name=$1; shift
	local out=$TEST_TMP/$name
	check "$name: prepare 2 warehouses" "$DBRIG_BIN" tpcc "$@" --warehouses=2 --threads=2 --rand-seed=7 prepare
	check "$name: prepare again refuses (tables exist)" bash -c '! "$0" tpcc "$@" --warehouses=2 prepare >/dev/null 2>&1' "$DBRIG_BIN" "$@"
	check "$name: check after prepare" bash -c 'f=$1; shift; "$0" tpcc "$@" check >"$f" 2>&1' "$DBRIG_BIN" "$out.check0" "$@"
	check "$name: loaded row counts" grep -q "rows: warehouse 2, district 20, customer 60000, orders 60000, new_order 18000, item 100000, stock 200000" "$out.check0"
	check "$name: closed-loop run" "$DBRIG_BIN" tpcc "$@" --delays=off --terminals=8 --connections=4 --time=4 \
		--report-interval=1 --result="$out.off.json" --journal="$out.off.jsonl" run
	check "$name: closed-loop mix within bounds" tpcc_mix_ok "$out.off.json"
	check "$name: journal has interval lines" [ "$(grep -c '"type":"interval"' "$out.off.jsonl")" -ge 3 ]
	# terminals / TPS = average latency (each queued Delivery one more in the system)
	check "$name: closed-loop run: oracle" oracle result "$out.off.json" --journal "$out.off.jsonl"
	check "$name: run with delays (20 terminals, scale:0.01)" "$DBRIG_BIN" tpcc "$@" --delays=scale:0.01 --connections=3 \
		--precondition=1 --time=6 --result="$out.spec.json" run
	check "$name: delayed mix within bounds" tpcc_mix_ok "$out.spec.json" 0.5
	# The offered load, from the spec's keying and think times scaled by 0.01:
	# TPS = terminals / mean cycle (keying + think + response) within 10%.
	check "$name: delayed run: oracle" oracle result "$out.spec.json"
	check "$name: precondition kept apart" python3 -c "
import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r['phases']['precondition']['transactions'] > 0 else 1)" "$out.spec.json"
	check "$name: password not in the result" bash -c '! grep -q "${TPCC_SECRET:-no-secret-here}" "$0"' "$out.spec.json"
	# TPCC_SESSIONS="N COUNT_FN": also one session per terminal, N terminals.
	[ -z "${TPCC_SESSIONS:-}" ] || tpcc_sessions_check "$name" ${TPCC_SESSIONS} "$@"
	check "$name: check after the runs" "$DBRIG_BIN" tpcc "$@" check
	tpcc_broken_checks "$name" "$@"
	check "$name: cleanup" "$DBRIG_BIN" tpcc "$@" cleanup
}

# The check is shown to fail: each of conditions 1-4 broken in turn on
# warehouse 1 / district 1 (the review's four breaks), `tpcc check` must exit 1
# with that condition's FAILED line(s) naming one warehouse or district and
# every other condition ok; the change is undone and the next check passes.
tpcc_broken_checks() { # tpcc_broken_checks NAME ARGS...
	local name=$1; shift
	local out=$TEST_TMP/$name.broken mid n expect rc row
	if [ -z "${TPCC_SQL:-}" ]; then
		fail "$name: TPCC_SQL is not set: the broken-database checks cannot run"
		return
	fi
	mid=$($TPCC_SQL "SELECT FLOOR((MIN(no_o_id) + MAX(no_o_id)) / 2) FROM new_order WHERE no_w_id = 1 AND no_d_id = 1")
	local rows=(
		"1|UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1|UPDATE warehouse SET w_ytd = w_ytd - 1 WHERE w_id = 1"
		"2|UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 1|UPDATE district SET d_next_o_id = d_next_o_id - 1 WHERE d_w_id = 1 AND d_id = 1"
		"3|DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = $mid|INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($mid, 1, 1)"
		"4|UPDATE orders SET o_ol_cnt = o_ol_cnt + 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1|UPDATE orders SET o_ol_cnt = o_ol_cnt - 1 WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 1"
	)
	for row in "${rows[@]}"; do
		IFS='|' read -r n brk undo <<<"$row"
		$TPCC_SQL "$brk" >/dev/null
		set +e
		"$DBRIG_BIN" tpcc "$@" check >"$out.$n" 2>"$out.$n.err"
		rc=$?
		set -e
		$TPCC_SQL "$undo" >/dev/null
		check "$name: condition $n broken: check exits 1 (got $rc)" [ "$rc" = 1 ]
		# condition 2 is two lines (max(O_ID) and max(NO_O_ID)); the others one
		expect=1; [ "$n" = 2 ] && expect=2
		check "$name: condition $n broken: its FAILED line(s), one warehouse/district ($(grep FAILED "$out.$n" | tr '\n' ' '))" \
			[ "$(grep -c "^FAILED condition $n (.*: 1 \(warehouses\|districts\) violate it$" "$out.$n")" = "$expect" ]
		check "$name: condition $n broken: nothing else FAILED" [ "$(grep -c '^FAILED' "$out.$n")" = "$expect" ]
		check "$name: condition $n broken: the other conditions ok" [ "$(grep -c '^ok ' "$out.$n")" = $((5 - expect)) ]
		check "$name: condition $n broken: the error line names it ($(cat "$out.$n.err"))" \
			grep -q "consistency check failed: condition $n " "$out.$n.err"
	done
	check "$name: check passes again once the breaks are undone" "$DBRIG_BIN" tpcc "$@" check
}
