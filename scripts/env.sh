# Sourced by the build scripts: find nvcc where CUDA installs it even when it is not on PATH.
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
