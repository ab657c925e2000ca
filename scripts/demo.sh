#!/usr/bin/env bash
# The main job: install what is needed, build, and run the local-quick campaign
# (two folders as two drives, real MariaDB servers on 127.0.0.1, a few
# minutes), ending with the report.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
if [ "${DBRIG_SKIP_DEPS:-0}" != 1 ]; then
	scripts/install-deps.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
exec ./build/dbrig campaign configs/local-quick.json "$@"
