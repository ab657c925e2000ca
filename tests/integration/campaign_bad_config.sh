#!/bin/bash
# Every campaign validation message: tests/bad-config/campaign/NAME.json must make
# `dbrig campaign NAME.json --plan` print exactly NAME.expected's first line on
# stderr and exit with the status on its second line ("exit 2"). valid.json passes.
set -uo pipefail
DBRIG_SOURCE_DIR=${DBRIG_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
DBRIG_BIN=${DBRIG_BIN:-$DBRIG_SOURCE_DIR/build/dbrig}
[ -x "$DBRIG_BIN" ] || { echo "FAIL: $DBRIG_BIN is not built" >&2; exit 1; }
cd "$DBRIG_SOURCE_DIR/tests/bad-config/campaign" || exit 1
unset DBRIG_TEST_UNSET_VARIABLE
fails=0 n=0
for exp in *.expected; do
	name=${exp%.expected}
	want_msg=$(sed -n 1p "$exp")
	want_rc=$(sed -n 2p "$exp")
	got_msg=$("$DBRIG_BIN" campaign "$name.json" --plan 2>&1 >/dev/null)
	got_rc="exit $?"
	n=$((n + 1))
	if [ "$got_msg" != "$want_msg" ] || [ "$got_rc" != "$want_rc" ]; then
		echo "FAIL: $name.json" >&2
		echo "  want: $want_msg ($want_rc)" >&2
		echo "  got:  $got_msg ($got_rc)" >&2
		fails=$((fails + 1))
	fi
done
out=$("$DBRIG_BIN" campaign valid.json --plan 2>&1) || { echo "FAIL: valid.json was refused: $out" >&2; fails=$((fails + 1)); }
# Usage errors of the command itself.
"$DBRIG_BIN" campaign >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: no FILE should exit 2" >&2; fails=$((fails + 1)); }
"$DBRIG_BIN" campaign valid.json --bogus >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: unknown flag should exit 2" >&2; fails=$((fails + 1)); }
"$DBRIG_BIN" campaign missing-file.json --plan >/dev/null 2>&1; [ $? -eq 1 ] || { echo "FAIL: unreadable file should exit 1" >&2; fails=$((fails + 1)); }
"$DBRIG_BIN" campaign --help | grep -q -- "--resume" || { echo "FAIL: --help lists --resume" >&2; fails=$((fails + 1)); }
# Every shipped config plans cleanly.
for cfgf in "$DBRIG_SOURCE_DIR"/configs/*.json; do
	out=$(cd "$DBRIG_SOURCE_DIR" && "$DBRIG_BIN" campaign "configs/$(basename "$cfgf")" --plan 2>&1) ||
		{ echo "FAIL: $(basename "$cfgf") --plan: $out" >&2; fails=$((fails + 1)); }
done
echo "$n bad configs checked, $fails failure(s)"
[ "$fails" -eq 0 ]
