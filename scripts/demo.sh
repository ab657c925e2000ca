#!/usr/bin/env bash
# The main job: install what is needed, build, and run the local-quick campaign
# (two folders as two drives, real MariaDB servers on 127.0.0.1, a few
# minutes), ending with the report in results/local-quick/report/.
# Every run starts afresh (--fresh): the previous run's results/local-quick/,
# report included, is kept as results/local-quick.<UTC time>/. Arguments
# replace --fresh: scripts/demo.sh --plan, scripts/demo.sh --resume.
# The tests run it with DBRIG_DEMO_CONFIG (another campaign file) and DBRIG_BIN
# (a dbrig already built: nothing is built) set, and DBRIG_SKIP_DEPS=1.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
if [ "${DBRIG_SKIP_DEPS:-0}" != 1 ]; then
	scripts/install-deps.sh
fi
dbrig=${DBRIG_BIN:-}
if [ -z "$dbrig" ]; then
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j"$(nproc)"
	dbrig=./build/dbrig
fi
[ $# -gt 0 ] || set -- --fresh
exec "$dbrig" campaign "${DBRIG_DEMO_CONFIG:-configs/local-quick.json}" "$@"
