# The rename() kill shim (tests/lib/killshim.c), built into $TEST_TMP or $T on
# demand. Source after common.sh or campaign.sh.
#   killshim_build              prints the path of the built shim
#   killed_at_rename TARGET-SUBSTRING COMMAND...   runs COMMAND with the shim
#                               (DBRIG_KILL_CONTENT / DBRIG_KILL_NTH from the caller's env)
killshim_build() {
	local out=${TEST_TMP:-$T}/killshim.so
	[ -f "$out" ] || cc -shared -fPIC -O2 -Wall -o "$out" "$DBRIG_SOURCE_DIR/tests/lib/killshim.c" -ldl || return 1
	echo "$out"
}
killed_at_rename() {
	local want=$1 shim
	shift
	shim=$(killshim_build) || return 1
	# ASan wants to be first in the library list; the shim only wraps rename().
	LD_PRELOAD=$shim DBRIG_KILL_RENAME=$want ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 "$@"
}
