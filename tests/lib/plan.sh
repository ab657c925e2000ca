# plan_prints NAME LINE...: `dbrig campaign NAME.json --plan` (in the current folder) succeeds and
# prints every LINE as a whole line (its output in NAME.out, NAME.err). Source after a library that
# defines fail (tests/lib/common.sh or tests/lib/campaign.sh).
plan_prints() {
	local name=$1 line
	shift
	"$DBRIG_BIN" campaign "$name.json" --plan >"$name.out" 2>"$name.err" || fail "$name --plan failed: $(cat "$name.err")"
	for line in "$@"; do
		grep -qxF -- "$line" "$name.out" || fail "$name --plan does not print: $line"$'\n'"$(cat "$name.out")"
	done
}
