#!/usr/bin/env bash
# shellcheck over the guest setup scripts (issue 23 item 7): vm-templates/*.sh run as root
# at every boot of every VM, in the guest's /bin/sh (dash), so they are checked as POSIX
# sh, with setup-common.sh followed where they source it; scripts/make-base-image.sh
# (bash, the image recipe) as bash. The self-test plants an unquoted expansion in a copy of
# each guest script and expects shellcheck to name it. Exit 77 (skipped) without
# shellcheck, a failure under DBRIG_NO_SKIP=1 (scripts/deps-libvirt.txt installs it).
set -euo pipefail
src=${1:?usage: shellcheck.sh SOURCE-DIR [--self-test]}
if ! command -v shellcheck >/dev/null; then
	[ "${DBRIG_NO_SKIP:-0}" = 1 ] && { echo "lint/shellcheck: shellcheck is missing (apt-get install shellcheck)" >&2; exit 1; }
	echo "lint/shellcheck: SKIPPED: shellcheck is missing" >&2
	exit 77
fi
guest=("$src"/vm-templates/*.sh)
shellcheck -s sh -x -P "$src/vm-templates" "${guest[@]}"
shellcheck -s bash -x "$src/scripts/make-base-image.sh"
if [ "${2:-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	cp "$src"/vm-templates/*.sh "$tmp/"
	for f in "${guest[@]}"; do
		b=$(basename "$f")
		cp "$f" "$tmp/$b.orig"
		{ cat "$tmp/$b.orig"; printf '%s\n' 'rm -rf $db_name/'; } >"$tmp/$b"
		if out=$(shellcheck -s sh -x -P "$tmp" "$tmp/$b" 2>&1); then
			echo "lint/shellcheck: self-test: an unquoted \$db_name planted in $b, not found" >&2
			exit 1
		fi
		grep -q 'SC2086\|SC2115' <<<"$out" || { echo "lint/shellcheck: self-test: $b: unexpected finding: $out" >&2; exit 1; }
		cp "$tmp/$b.orig" "$tmp/$b"
	done
fi
echo "lint/shellcheck: ${#guest[@]} guest script(s) and make-base-image.sh clean${2:+, self-test caught the planted fault in each}"
