#!/usr/bin/env bash
# Install everything dbrig needs to build and to run its tests and demo on
# Debian 12: the base list below plus every scripts/deps-*.txt (one Debian
# package per line, kept by each area of the code). Needs root (or sudo).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base="gcc make cmake pkg-config default-libmysqlclient-dev libjansson-dev libcmocka-dev unixodbc-dev
libvirt-dev mariadb-server mariadb-client sysbench python3 procps"
extra=$(cat "$here"/deps-*.txt 2>/dev/null | sed 's/#.*//' | tr -s ' \n' ' ')
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# Servers installed here must not start a system instance: dbrig starts its own
# on 127.0.0.1 with private data directories.
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod +x /usr/sbin/policy-rc.d
	trap '$SUDO rm -f /usr/sbin/policy-rc.d' EXIT
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $base $extra >/dev/null
echo "install-deps: installed $(echo $base $extra | wc -w) packages"
