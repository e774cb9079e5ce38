#!/usr/bin/env bash
# Builds the sluice tool and runs the main job, `sluice bench` (on the GPU if there is one, else the CPU).
# Arguments go to `sluice bench` (see `sluice bench --help`); results land in ./sluice-results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
. scripts/env.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD_DIR" -j"$JOBS" --target sluice_cli
exec "$BUILD_DIR/tools/sluice/sluice" bench "$@"
