#!/usr/bin/env bash
# Installs what sluice needs to build and test on a fresh Debian machine, if it is missing:
# CMake, a C++20 compiler, GoogleTest, the Python package's build and tests (Python headers, pybind11, DLPack,
# NumPy, pytest, pip; PyTorch's CPU build optional), clang (for libFuzzer), oneTBB (the CPU benchmark's peers),
# OpenMPI (sluice::dist and its tests),
# EGL/OpenGL and Mesa (the gl device), gnuplot (the benchmark's figures; optional).
# The CUDA backend is built when nvcc is found (it is optional).
set -euo pipefail
# Needed to build and test (setup fails where one cannot be installed), and wanted (a failed install is said and
# passed over, so that a machine without a package mirror still builds what it can).
required=()
optional=()
command -v cmake >/dev/null || required+=(cmake)
command -v g++ >/dev/null || required+=(g++)
command -v make >/dev/null || required+=(make)
[ -f /usr/include/gtest/gtest.h ] || required+=(libgtest-dev)
# The Python package (python/): built for the first python3 that has NumPy and pytest (scripts/env.sh picks the
# same), else for Debian's, which then gets them.
py=""
for p in "$(command -v python3 || true)" /usr/bin/python3; do
  if [ -n "$p" ] && "$p" -c "import numpy, pytest" 2>/dev/null; then py=$p; break; fi
done
if [ -z "$py" ]; then py=/usr/bin/python3; required+=(python3-numpy python3-pytest); fi
[ -x "$py" ] || required+=(python3)
"$py" -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" 2>/dev/null ||
  required+=(python3-dev)
[ -f /usr/include/pybind11/pybind11.h ] || "$py" -c "import pybind11" 2>/dev/null || required+=(pybind11-dev)
[ -f /usr/include/dlpack/dlpack.h ] || "$py" -c "import torch" 2>/dev/null || "$py" -c "import cupy" 2>/dev/null || required+=(libdlpack-dev)
"$py" -m pip --version >/dev/null 2>&1 || required+=(python3-pip)
"$py" -c "import torch" 2>/dev/null || optional+=(python3-torch)  # tensors through DLPack in the tests
command -v clang++ >/dev/null || optional+=(clang)  # the libFuzzer target (scripts/fuzz.sh)
# OpenMP (the CPU backend's threads): libgomp comes with g++; clang (the fuzz build) needs LLVM's libomp.
{ [ -f /usr/include/omp.h ] || ls /usr/lib/llvm-*/lib/clang/*/include/omp.h >/dev/null 2>&1; } || optional+=(libomp-dev)
# tbb::parallel_scan and std::execution::par in `sluice bench --device cpu`; libstdc++'s parallel algorithms run on it.
[ -f /usr/include/oneapi/tbb.h ] || [ -f /usr/include/tbb/tbb.h ] || optional+=(libtbb-dev)
# The gl device (the papers' OpenGL systems on a headless EGL context): EGL and OpenGL headers and loaders, and
# Mesa's llvmpipe as the driver where no GPU driver is installed.
[ -f /usr/include/EGL/egl.h ] || optional+=(libegl-dev)
[ -f /usr/include/GL/glcorearb.h ] || optional+=(libgl-dev)
ls /usr/lib/*/libOpenGL.so >/dev/null 2>&1 || optional+=(libopengl-dev)
ls /usr/lib/*/libEGL_mesa.so.0 >/dev/null 2>&1 || optional+=(libegl-mesa0)
ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || optional+=(libgl1-mesa-dri)
# sluice::dist and its tests under mpirun: OpenMPI.
{ command -v mpicxx >/dev/null && command -v mpirun >/dev/null; } || optional+=(libopenmpi-dev openmpi-bin)
apt_get() { if [ "$(id -u)" = 0 ]; then apt-get "$@"; else sudo apt-get "$@"; fi; }
if [ $((${#required[@]} + ${#optional[@]})) -gt 0 ]; then
  echo "setup: installing ${required[*]} ${optional[*]}"
  apt_get update -q || true
  if ! apt_get install -y -q "${required[@]}" "${optional[@]}"; then
    if [ ${#required[@]} -gt 0 ] && ! apt_get install -y -q "${required[@]}"; then
      echo "setup: could not install ${required[*]}, which the build needs" >&2
      exit 1
    fi
    echo "setup: could not install ${optional[*]}: building without them (no fuzz targets without clang, no gl device without EGL and OpenGL, no TBB peers in the CPU benchmark, no PyTorch tensors in the Python tests, no sluice::dist without MPI)"
  fi
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc found at /usr/local/cuda/bin (add it to PATH to build the CUDA backend; this build adds it)"
fi
# The figures of `sluice bench` (PNGs): gnuplot. Optional: without it the bench writes the gnuplot scripts and
# says so, and the tests check the PNGs only where it is installed; a failed install is said and passed over.
if ! command -v gnuplot >/dev/null; then
  echo "setup: installing gnuplot-nox (the benchmark's figures)"
  if [ "$(id -u)" = 0 ]; then apt-get install -y -q gnuplot-nox || { apt-get update -q && apt-get install -y -q gnuplot-nox; }
  else sudo apt-get install -y -q gnuplot-nox || { sudo apt-get update -q && sudo apt-get install -y -q gnuplot-nox; }
  fi >/dev/null 2>&1 || echo "setup: gnuplot-nox could not be installed: sluice bench will write its figures as gnuplot scripts only"
fi
