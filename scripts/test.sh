#!/usr/bin/env bash
# The test command: installs what is needed, builds with warnings as errors,
# and runs every test (cmocka units and integration tests against real servers
# that the tests start on 127.0.0.1 and stop again).
#   scripts/test.sh                 # everything
#   DBRIG_SKIP_DEPS=1 scripts/test.sh   # skip apt-get (packages already there)
#   scripts/test.sh -L unit         # extra arguments go to ctest
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
if [ "${DBRIG_SKIP_DEPS:-0}" != 1 ]; then
	scripts/install-deps.sh
fi
build=${DBRIG_BUILD_DIR:-build-test}
cmake -S . -B "$build" -DDBRIG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure --timeout 1800 "$@"
