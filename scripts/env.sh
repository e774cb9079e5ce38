# Sourced by the build scripts: nvcc found where CUDA installs it even when it is not on PATH; the build folder,
# the parallel jobs, and the options of the main build.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
# Every option of the main build, set each time: CMake's cache keeps what the last configure set, so an option
# left out would silently take another script's value (tests or benchmarks off). scripts/test.sh configures
# $BUILD_DIR with these, and so does scripts/bench.sh on a machine with a GPU: either after the other rebuilds
# nothing. The CUDA backend is chosen by each script (-DSLUICE_ENABLE_CUDA).
# The Python package is built for $PYTHON: the first python3 with NumPy and pytest (scripts/setup.sh installs
# Debian's where none has them).
if [ -z "${PYTHON:-}" ]; then
  for p in "$(command -v python3 || true)" /usr/bin/python3; do
    if [ -n "$p" ] && "$p" -c "import numpy, pytest" 2>/dev/null; then PYTHON=$p; break; fi
  done
  PYTHON=${PYTHON:-/usr/bin/python3}
fi
MAIN_OPTIONS=(-DCMAKE_BUILD_TYPE=Release -DSLUICE_BUILD_TOOLS=ON -DSLUICE_BUILD_TESTS=ON -DSLUICE_BUILD_BENCHMARKS=ON
  -DSLUICE_ENABLE_GL=ON -DSLUICE_ENABLE_DIST=ON -DSLUICE_BUILD_FUZZERS=OFF -DSLUICE_BUILD_PYTHON=ON -DPython_EXECUTABLE="$PYTHON")
