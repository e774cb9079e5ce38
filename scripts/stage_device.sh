#!/usr/bin/env bash
# Copies the sm_90 binaries of build/ into .device/ (git-ignored) for the device tool's `carry`.
set -eu
cd "$(dirname "$0")/.."
mkdir -p .device
cp build/tools/sluice/sluice build/tests/sluice_tests .device/
cp build/tests/installed-package/build/example .device/ 2>/dev/null || echo "stage: no installed-package example (run ctest -R installed first)"
strip .device/sluice .device/sluice_tests
du -sh .device
