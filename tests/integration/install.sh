#!/usr/bin/env bash
# `cmake --install` makes a dbrig that runs without its source tree: the binary,
# vm-templates/, sql/ and reports/published/ under <prefix>/share/dbrig, found
# relative to the binary (src/core/datadir.h), so the installed tree still works
# after it is moved. Checked by running the installed, moved binary from / on the
# defaults that use its data: `dbrig published` (reports/published/), `dbrig report`
# without --compare, and `dbrig provision --dry-run` on libvirt's test driver
# (vm-templates/); and DBRIG_DATA_DIR pointing at an empty folder makes the same
# commands fail naming that folder (so the data really comes from there).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
trap cleanup_test EXIT
: "${DBRIG_BUILD_DIR:?set by ctest}"
T=$TEST_TMP
SRC=$DBRIG_SOURCE_DIR

cmake --install "$DBRIG_BUILD_DIR" --prefix "$T/first" --strip >"$T/install.log" 2>&1 ||
	die "cmake --install failed: $(tail -5 "$T/install.log")"
mv "$T/first" "$T/moved"
P=$T/moved
check "the binary is installed in <prefix>/bin" test -x "$P/bin/dbrig"
for d in vm-templates sql reports/published; do
	check "share/dbrig/$d holds the sources' $d/" diff -r "$SRC/$d" "$P/share/dbrig/$d"
done
check "no source path of the data is compiled in" \
	bash -c "! grep -aq -e '$SRC/vm-templates' -e '$SRC/reports/published' '$P/bin/dbrig'"

# published: the installed default equals the sources' folder named explicitly.
"$DBRIG_BIN" published --dir "$SRC/reports/published" >"$T/pub.want" 2>&1 || die "dbrig published --dir failed"
(cd / && "$P/bin/dbrig" published) >"$T/pub.got" 2>&1 || fail "the installed dbrig published failed: $(head -3 "$T/pub.got")"
check "the installed dbrig published lists the shipped files" diff "$T/pub.want" "$T/pub.got"
check "the list is not empty" test "$(wc -l <"$T/pub.got")" -gt 10

# report without --compare: the published references of the data folder are beside the results.
"$DBRIG_BIN" report "$SRC/tests/fixtures/results" --out "$T/rep.want" --compare "$SRC/reports/published" \
	--format md >/dev/null 2>"$T/rep.err" || die "dbrig report --compare failed: $(cat "$T/rep.err")"
(cd / && "$P/bin/dbrig" report "$SRC/tests/fixtures/results" --out "$T/rep.got" --format md) >/dev/null 2>"$T/rep.err" ||
	fail "the installed dbrig report failed: $(cat "$T/rep.err")"
check "the installed report compares with the shipped references" diff "$T/rep.want/report.md" "$T/rep.got/report.md"

# provision --dry-run renders the domain and seed from the data folder's vm-templates/
# (a build with the libvirt target: `dbrig --version` lists its optional backends).
with_libvirt=0
"$P/bin/dbrig" --version | grep -q '^optional backends:.* libvirt\|^optional backends: libvirt' && with_libvirt=1
cat >"$T/c.json" <<JSON
{"name": "inst", "workload": {"kind": "sysbench", "test": "oltp_read_write", "options": {"tables": 1}},
 "engine": {"kind": "mariadb", "buffer_pool": "64M"},
 "target": {"kind": "libvirt", "hosts": {"t": "test:///default"}, "endpoint": "forward", "db_password": "pw-1234.abcd"},
 "drives": [{"name": "d1", "pool": "default-pool", "host": "t"}],
 "run_groups": [{"name": "g", "placement": {"d1": 1}}], "precondition": 0, "sample": "1s", "output": "$T/out"}
JSON
if [ $with_libvirt = 1 ]; then
	(cd / && "$P/bin/dbrig" provision "$T/c.json" --dry-run) >"$T/dry.out" 2>"$T/dry.err" ||
		fail "the installed dbrig provision --dry-run failed: $(cat "$T/dry.err")"
	check "the dry run renders the domain from the installed templates" grep -q "<domain" "$T/dry.out"
fi

# An empty data folder: each command fails and names the path it looked in.
mkdir "$T/empty"
if DBRIG_DATA_DIR=$T/empty "$P/bin/dbrig" published >/dev/null 2>"$T/e1"; then fail "published ran with no data"; fi
check "published names the data folder it looked in" grep -q "$T/empty/reports/published" "$T/e1"
if [ $with_libvirt = 1 ]; then
	if DBRIG_DATA_DIR=$T/empty "$P/bin/dbrig" provision "$T/c.json" --dry-run >/dev/null 2>"$T/e2"; then
		fail "provision --dry-run ran with no templates"
	fi
	check "provision names the templates folder it looked in" grep -q "$T/empty/vm-templates" "$T/e2"
fi
finish
