#!/usr/bin/env bash
# Every shipped libvirt config (configs/*.json with "target.kind": "libvirt") boots ready on
# a Debian base image, or says what it needs first: `dbrig provision FILE --dry-run`
# renders each VM's cloud-init user-data, and every package it installs must exist in the
# apt sources it configures (Debian's, those of this machine: `apt-cache pkgnames`), or
# `dbrig campaign FILE --plan` must print a warning naming that package (the config then
# needs a vendor repository in its image, or, when the user-data adds the vendor's apt
# source, the vendor's key file, which the warning names with the repository's host). A config whose guests could never install
# their engine fails here, not hours into a campaign at ready_timeout.
# Cheap: no server, no VM; the hosts are replaced by libvirt's test driver so the dry
# run never reaches a real libvirtd. Takes about a second.
# needs: libvirt odbc
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
trap cleanup_test EXIT

command -v jq >/dev/null || skip_test "jq missing"
command -v apt-cache >/dev/null || skip_test "apt-cache missing (not a Debian/Ubuntu machine)"
T=$TEST_TMP
# apt answers from the package lists apt-get update fetched: without them every package
# "does not exist", which would say nothing about the configs. One apt-cache call (each
# takes seconds): the names of every real (not purely virtual) package apt knows.
apt-cache pkgnames 2>/dev/null | sort -u >"$T/pkgnames" || true
[ -s "$T/pkgnames" ] || die "apt knows no package on this machine (run apt-get update first): cannot check the shipped configs' packages"
grep -qx mariadb-server "$T/pkgnames" ||
	die "apt knows no mariadb-server: this machine's apt sources are not Debian's (or apt-get update is needed)"

# The SQL Server config's drivers need ODBC Driver 18 registered on this host before any VM
# boots (preflight, also at --dry-run); this test is about the guests' packages, so a private
# odbcinst.ini names it (the library itself is never loaded: nothing connects).
mkdir -p "$T/odbc"
printf '[ODBC Driver 18 for SQL Server]\nDriver=/nonexistent/libmsodbcsql-18.so\n' >"$T/odbc/odbcinst.ini"
export ODBCSYSINI="$T/odbc"

checked=0
for f in "$DBRIG_SOURCE_DIR"/configs/*.json; do
	[ "$(jq -r '.target.kind // ""' "$f")" = libvirt ] || continue
	name=$(basename "$f")
	jq --arg out "$T/out" '.target.hosts |= with_entries(.value = "test:///default") | .output = $out' \
		"$f" >"$T/$name"
	"$DBRIG_BIN" provision "$T/$name" --dry-run >"$T/dry.out" 2>"$T/dry.err" ||
		die "$name: provision --dry-run failed: $(cat "$T/dry.err")"
	"$DBRIG_BIN" campaign "$T/$name" --plan >"$T/plan.out" 2>"$T/plan.err" ||
		die "$name: campaign --plan failed: $(cat "$T/plan.err")"
	# No seed (a hand-built image, Windows): cloud-init installs nothing.
	if [ "$(jq -r 'if .target | has("cloud_init") then .target.cloud_init else true end' "$f")" = false ]; then
		echo "$name: no cloud-init seed: the image carries its packages (nothing to check; --plan and the dry run pass)"
		continue
	fi
	# Each user-data is the JSON between "#cloud-config" and "# meta-data:".
	awk '/^#cloud-config$/ { p = 1; next } /^# meta-data:/ { p = 0 } p' "$T/dry.out" >"$T/ud.json"
	nud=$(grep -c '^#cloud-config$' "$T/dry.out" || true)
	[ "$nud" -gt 0 ] || die "$name: the dry run printed no user-data"
	jq -s -e 'all(.[]; type == "object")' "$T/ud.json" >/dev/null || die "$name: a user-data is not a JSON object"
	# A vendor's apt source in the user-data (with the vendor's key, which provision reads from
	# .target.guest_apt_key): this machine cannot reach it, so its packages cannot be checked
	# here. Instead --plan must name, on one line, the packages, the repository's host and
	# the key file provision needs first; the packages are then checked against that line.
	vendor=
	if jq -s -e 'any(.[]; has("apt") and (.apt | has("sources")))' "$T/ud.json" >/dev/null; then
		vendor=$(grep "warning: .*the user-data adds its apt sources" "$T/plan.err") ||
			die "$name: its user-data adds apt sources, and --plan does not say what they need: $(cat "$T/plan.err")"
		[ "$(printf '%s\n' "$vendor" | wc -l)" = 1 ] || die "$name: --plan names the vendor sources on more than one line"
		key=$(jq -r '.target.guest_apt_key' "$f")
		case $vendor in *"key provision reads from $key,"*) ;; *) die "$name: --plan does not name the key file $key: $vendor" ;; esac
		for host in $(jq -s -r '[.[] | .apt.sources // {} | .[] | .source | capture("https://(?<h>[^/]+)/").h] | unique | .[]' "$T/ud.json"); do
			case $vendor in *"($host)"*) echo "$name: apt source on $host: named by --plan with key $key" ;;
			*) die "$name: its user-data adds an apt source on $host, which --plan does not name: $vendor" ;; esac
		done
	fi
	for pkg in $(jq -s -r '[.[] | .packages // [] | .[] | if type == "array" then .[0] else . end] | unique | .[]' "$T/ud.json"); do
		if grep -qxF "$pkg" "$T/pkgnames"; then
			echo "$name: $pkg: in Debian's archive"
		elif [ -n "$vendor" ]; then
			case $vendor in *"the guests install "*"$pkg"*" from "*) echo "$name: $pkg: from the vendor source --plan names" ;;
			*) die "$name: its user-data installs \"$pkg\", in no apt source of this machine nor named with the vendor source: $vendor" ;; esac
		elif grep -q "warning: .*the guests install .*$pkg.*which Debian's archive does not carry" "$T/plan.err"; then
			echo "$name: $pkg: not in Debian's archive, and --plan says what it needs: $(grep -c warning "$T/plan.err") warning(s)"
			[ "$(grep -c "$pkg" "$T/plan.err")" = 1 ] || die "$name: --plan names $pkg on more than one line"
		else
			die "$name: its user-data installs \"$pkg\", which is in no apt source of this machine, and --plan does not say so: $(cat "$T/plan.err")"
		fi
		checked=$((checked + 1))
	done
done
[ "$checked" -gt 0 ] || die "no package checked: no shipped libvirt config found under $DBRIG_SOURCE_DIR/configs"
# The shipped SQL Server configs name the vendor's key; without it the user-data adds no
# vendor source and the guests cannot install the engine from Debian's archive: --plan must
# say so on one line, naming the repository the base image needs instead.
jq --arg out "$T/out" '.target.hosts |= with_entries(.value = "test:///default") | .output = $out
	| del(.target.guest_apt_key)' "$DBRIG_SOURCE_DIR/configs/storagereview-sqlserver-4vm.json" >"$T/nokey.json"
"$DBRIG_BIN" campaign "$T/nokey.json" --plan >"$T/plan.out" 2>"$T/plan.err" ||
	die "the SQL Server config without guest_apt_key: campaign --plan failed: $(cat "$T/plan.err")"
[ "$(grep -c "warning: .*the guests install .*which Debian's archive does not carry; the base image needs" "$T/plan.err")" = 1 ] ||
	die "the SQL Server config without guest_apt_key: --plan does not say on one line that the guests cannot install the engine: $(cat "$T/plan.err")"
echo "shipped_config_packages: without guest_apt_key, --plan names what the base image needs"
echo "shipped_config_packages: $checked package(s) checked"
