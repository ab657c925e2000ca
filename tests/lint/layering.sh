#!/usr/bin/env bash
# The dependency rules of docs/architecture.md, checked over src/:
#   1. #include "X/..." only of the folders and headers cmake/layers.txt allows
#      (and nothing includes cli/);
#   2. vendor headers only where they belong: <mysql.h> under db/mysql/,
#      <sql*.h> under db/odbc/, <libvirt/...> under target/libvirt/, <jansson.h>
#      in no header;
#   3. no strcmp on a backend's name (drv->name, ops->name, ...) outside a
#      registry.c, and no workload told by its name or identity outside
#      src/workload/ (strcmp(kind, "tpcc"), == &workload_tpcc): ask its
#      descriptor (workload_find(kind)->..., cfg->workload->...);
#   4. EXIT_USAGE / EXIT_RUNTIME only in cli/ and main.c;
#   5. no comment cites a review's finding number ("finding 4", "review #9"): a reader has
#      no such document, so a comment says the reason itself;
#   6. an optional backend (the libvirt target, the ODBC driver: CMake's
#      DBRIG_WITH_LIBVIRT / DBRIG_WITH_ODBC) is reached from outside only under
#      #if DBRIG_HAVE_LIBVIRT / DBRIG_HAVE_ODBC (its registry entry, a guarded
#      include), so a build without it still compiles and links;
#   7. (docs/architecture.md: rule 8) private headers stay private: a backend's folder (db/<name>/,
#      target/<name>/) has its headers included only by its own files (the
#      rest reach it through its vtable), and a *_int.h (what the files of one
#      split module share) only by the files of its own folder.
# One line per violation: file:line: what, and what is allowed.
#   layering.sh [SRC_DIR]      check a tree (default: this checkout's src/)
#   layering.sh --self-test    also plant a back-edge in a copy and expect it caught
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
rules=$here/cmake/layers.txt

check_tree() { # check_tree SRC: prints violations, returns 1 if any
	local src=$1 bad=0 f rel folder inc target allowed line n
	declare -A allow
	while read -r folder rest; do
		[ -z "$folder" ] || [ "${folder:0:1}" = "#" ] && continue
		allow[$folder]=" $folder ${rest%%#*} "
	done <"$rules"
	while IFS= read -r -d '' f; do
		rel=${f#"$src"/}
		folder=${rel%%/*}
		[ "$folder" = "$rel" ] && folder="" # src/main.c
		n=0
		guard=""
		while IFS= read -r line; do
			n=$((n + 1))
			case $line in
			'#if DBRIG_HAVE_'*) guard=${line#\#if DBRIG_HAVE_} ;;
			'#endif'*) guard="" ;;
			*'"db/odbc.h"'* | *'"db/odbc/'* | *db_odbc_ops*)
				case $rel in db/odbc.c | db/odbc/* | db/odbc.h) ;; *)
					[ "$guard" = ODBC ] || { echo "$rel:$n: reaches the ODBC driver outside #if DBRIG_HAVE_ODBC (an optional backend)"; bad=1; } ;;
				esac ;;
			*'"target/libvirt/'* | *target_libvirt_ops*)
				case $rel in target/libvirt/*) ;; *)
					[ "$guard" = LIBVIRT ] || { echo "$rel:$n: reaches the libvirt target outside #if DBRIG_HAVE_LIBVIRT (an optional backend)"; bad=1; } ;;
				esac ;;
			esac
			case $line in
			'#include "'*'/'*'"'*)
				inc=${line#\#include \"}
				inc=${inc%%\"*}
				target=${inc%%/*}
				if [ -z "$folder" ]; then
					continue # main.c: the command table, may include anything
				fi
				case $inc in
				db/*/* | target/*/*)
					case ${rel%/*}/ in "${inc%/*}"/*) ;; *)
						echo "$rel:$n: includes \"$inc\" (a backend's folder is reached through its vtable: only src/${inc%/*}/ includes its headers)"; bad=1; continue ;;
					esac ;;
				esac
				case $inc in
				*_int.h)
					[ "${rel%/*}" = "${inc%/*}" ] || { echo "$rel:$n: includes \"$inc\" (a *_int.h is shared by the files of src/${inc%/*}/ only)"; bad=1; continue; } ;;
				esac
				if [ "$target" = cli ] && [ "$folder" != cli ]; then
					echo "$rel:$n: includes \"$inc\" (nothing outside cli/ includes cli/)"; bad=1; continue
				fi
				allowed=${allow[$folder]:-}
				if [ -z "$allowed" ]; then
					echo "$rel:$n: src/$folder/ has no line in cmake/layers.txt"; bad=1; continue
				fi
				case $allowed in
				*" $target "* | *" $inc "*) ;;
				*) echo "$rel:$n: includes \"$inc\" (src/$folder/ may include:${allowed% })"; bad=1 ;;
				esac
				;;
			'#include <mysql.h>'*)
				case $rel in db/mysql/*) ;; *) echo "$rel:$n: <mysql.h> (only under db/mysql/)"; bad=1 ;; esac ;;
			'#include <sql.h>'* | '#include <sqlext.h>'* | '#include <sqltypes.h>'*)
				case $rel in db/odbc/*) ;; *) echo "$rel:$n: ${line#\#include } (only under db/odbc/)"; bad=1 ;; esac ;;
			'#include <libvirt/'*)
				case $rel in target/libvirt/*) ;; *) echo "$rel:$n: ${line#\#include } (only under target/libvirt/)"; bad=1 ;; esac ;;
			'#include <jansson.h>'*)
				case $rel in *.h) echo "$rel:$n: <jansson.h> in a header (keep jansson in the .c files that read or write JSON)"; bad=1 ;; esac ;;
			*strcmp\(*'->name, "'* | *strcmp\(*'.name, "'*)
				case $rel in */registry.c) ;; *) echo "$rel:$n: strcmp on a backend's name (make it a hook or a capability of the vtable)"; bad=1 ;; esac ;;
			*strcmp\(*'kind, "'*)
				case $rel in workload/*) ;; *) echo "$rel:$n: strcmp on a workload's kind (ask its descriptor: workload_find(kind)->...)"; bad=1 ;; esac ;;
			*'== &workload_'* | *'!= &workload_'*)
				case $rel in workload/*) ;; *) echo "$rel:$n: a workload told by its identity (ask its descriptor: cfg->workload->...)"; bad=1 ;; esac ;;
			*EXIT_USAGE* | *EXIT_RUNTIME*)
				case $rel in cli/* | main.c) ;; *) echo "$rel:$n: an exit code outside cli/ (libraries return 0 or -errno)"; bad=1 ;; esac ;;
			*[Ff]inding\ [0-9]* | *[Rr]eview\ \#[0-9]*)
				echo "$rel:$n: a comment cites a review finding by number (say the reason itself)"; bad=1 ;;
			esac
		done <"$f"
	done < <(find "$src" -name '*.[ch]' -print0 | sort -z)
	return $bad
}

src=$here/src
self=0
case ${1:-} in
--self-test) self=1 ;;
"") ;;
*) src=$1 ;;
esac
check_tree "$src" || { echo "layering: FAILED (see docs/architecture.md, Dependency rules)" >&2; exit 1; }
if [ $self = 1 ]; then
	# The check must be able to fail: a copy with a back-edge db -> campaign,
	# a vendor header out of place, an exit code in a library and a comment
	# citing a finding number, an unguarded include of an optional backend, a
	# backend's name compared, a workload told by its kind or identity, and
	# private headers included from outside their folder.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp -a "$src" "$tmp/src"
	printf '#include "campaign/config.h"\n' >>"$tmp/src/db/error.c"
	printf '#include <mysql.h>\n' >>"$tmp/src/runner/span.c"
	printf 'static int x = EXIT_RUNTIME;\n' >>"$tmp/src/result/tail.c"
	printf '/* checked here (security review finding 7) */\n' >>"$tmp/src/stats/ci.c"
	printf '/* as the tool does (review #9) */\n' >>"$tmp/src/stats/verdict.c"
	printf '#include "db/odbc.h"\n' >>"$tmp/src/db/bulk.c"
	printf 'static int y(const struct db_driver_ops *drv) { return !strcmp(drv->name, "mysql"); }\n' >>"$tmp/src/db/error.c"
	printf 'static int z(const char *kind) { return !strcmp(kind, "sysbench"); }\n' >>"$tmp/src/report/writers.c"
	printf 'static int w(const struct run *r) { return strcmp(r->kind, "tpcc"); }\n' >>"$tmp/src/result/read.c"
	printf 'static int v(const struct campaign_config *cfg) { return cfg->workload == &workload_tpcc; }\n' >>"$tmp/src/campaign/plan.c"
	printf 'static int u(const struct campaign_config *cfg) { return cfg->workload != &workload_sysbench; }\n' >>"$tmp/src/campaign/golden.c"
	printf '#include "target/local/local.h"\n' >>"$tmp/src/target/libvirt/domain.c"
	printf '#include "db/mysql/mysql_int.h"\n' >>"$tmp/src/db/rows.c"
	printf '#include "result/read_int.h"\n' >>"$tmp/src/report/aggregate.c"
	out=$(check_tree "$tmp/src") && { echo "layering: the planted violations were not found" >&2; exit 1; }
	for want in 'db/error.c:[0-9]*: includes "campaign/config.h" (src/db/ may include: db core stats)' \
		'runner/span.c:[0-9]*: <mysql.h> (only under db/mysql/)' \
		'result/tail.c:[0-9]*: an exit code outside cli/' \
		'stats/ci.c:[0-9]*: a comment cites a review finding by number' \
		'stats/verdict.c:[0-9]*: a comment cites a review finding by number' \
		'db/bulk.c:[0-9]*: reaches the ODBC driver outside #if DBRIG_HAVE_ODBC' \
		'db/error.c:[0-9]*: strcmp on a backend'"'"'s name' \
		'report/writers.c:[0-9]*: strcmp on a workload'"'"'s kind' \
		'result/read.c:[0-9]*: strcmp on a workload'"'"'s kind' \
		'campaign/plan.c:[0-9]*: a workload told by its identity' \
		'campaign/golden.c:[0-9]*: a workload told by its identity' \
		'target/libvirt/domain.c:[0-9]*: includes "target/local/local.h" (a backend'"'"'s folder is reached through its vtable' \
		'db/rows.c:[0-9]*: includes "db/mysql/mysql_int.h" (a backend'"'"'s folder' \
		'report/aggregate.c:[0-9]*: includes "result/read_int.h" (a \*_int.h is shared by the files of src/result/ only)'; do
		echo "$out" | grep -q "^$want" || { echo "layering: planted violation not reported: $want" >&2; echo "$out" >&2; exit 1; }
	done
fi
echo "layering: ok"
