#!/usr/bin/env bash
# Copies the sm_90 binaries of build/ into .device/ (git-ignored) for the device tool's `carry`, compressed.
set -eu
cd "$(dirname "$0")/.."
mkdir -p .device
cp build/tools/sluice/sluice build/tests/sluice_tests .device/
cp build/tests/installed-package/build/example .device/ 2>/dev/null || echo "stage: no installed-package example (run ctest -R installed first)"
strip .device/sluice .device/sluice_tests
# The carry limit is 64 MiB: ship the binaries compressed; on the device, `tar xzf .device/bins.tar.gz -C .device`.
bins="sluice sluice_tests"; [ -f .device/example ] && bins="$bins example"
# The CPU backend's runtime libraries (OpenMP, and TBB for the benchmark's peers) may be missing there: ship them.
mkdir -p .device/lib
for lib in $(ldd build/tools/sluice/sluice | awk '/libgomp|libtbb/ {print $3}'); do cp -L "$lib" .device/lib/; done
bins="$bins lib"
tar czf .device/bins.tar.gz -C .device $bins && (cd .device && rm -rf $bins)
# The binaries link libEGL and libOpenGL (the gl device), which the device machine lacks: their Debian packages go
# into .gl/ (git-ignored; carry it too), which scripts/device_prologue.sh unpacks there.
if ! compgen -G ".gl/libegl1_*.deb" >/dev/null; then
  mkdir -p .gl && (cd .gl && apt-get download libegl1 libopengl0 libglvnd0 >/dev/null 2>&1) ||
    echo "stage: could not download libegl1 libopengl0 libglvnd0 into .gl/ (apt-get update first?)"
fi
du -sh .device
