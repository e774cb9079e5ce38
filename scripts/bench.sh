#!/usr/bin/env bash
# Builds the sluice tool and runs the main job, `sluice bench` (on the GPU if there is one, else the CPU).
# Arguments go to `sluice bench` (see `sluice bench --help`); results land in ./sluice-results/.
#
# It builds what this machine can run. The CUDA backend (when nvcc is found) where a GPU is present
# (`nvidia-smi -L` lists one, or /dev/nvidia0 exists) or where it is asked for (`--device cuda` among the
# arguments, or SLUICE_ENABLE_CUDA=ON in the environment); otherwise the CPU backend alone, said in one line:
# CUDA kernels that cannot run here would take most of the run to compile. SLUICE_ENABLE_CUDA=OFF asks for the
# CPU build even with a GPU.
#
# Build folders: with CUDA, $BUILD_DIR (default build/), configured with the same options as scripts/test.sh
# (scripts/env.sh), so that either script after the other reconfigures and rebuilds nothing the first built.
# The CPU-only build has a folder of its own, $BUILD_DIR-cpu: configured into $BUILD_DIR it would flip that
# folder's CUDA option, and the next scripts/test.sh would configure and compile it all again.
#
# --print-config (anywhere among the arguments): print the build this run would make and stop; nothing is
# installed, configured or built.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

print_config=0
args=()
asked_cuda=0
prev=""
for a in "$@"; do
  if [ "$a" = --print-config ]; then print_config=1; continue; fi
  if { [ "$prev" = --device ] && [ "$a" = cuda ]; } || [ "$a" = --device=cuda ]; then asked_cuda=1; fi
  args+=("$a")
  prev=$a
done

# The CUDA backend: ON or OFF, and why.
case "${SLUICE_ENABLE_CUDA:-}" in
  ON | on | 1 | TRUE | true | YES | yes) cuda=ON why="SLUICE_ENABLE_CUDA=$SLUICE_ENABLE_CUDA" ;;
  OFF | off | 0 | FALSE | false | NO | no) cuda=OFF why="SLUICE_ENABLE_CUDA=$SLUICE_ENABLE_CUDA" ;;
  "")
    if [ $asked_cuda = 1 ]; then cuda=ON why="--device cuda"
    elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then cuda=ON why="a GPU is present (nvidia-smi -L)"
    elif [ -e /dev/nvidia0 ]; then cuda=ON why="a GPU is present (/dev/nvidia0)"
    else cuda=OFF why="no GPU found: nvidia-smi -L lists none and there is no /dev/nvidia0"
    fi ;;
  *) echo "bench: SLUICE_ENABLE_CUDA=$SLUICE_ENABLE_CUDA: expected ON or OFF" >&2; exit 1 ;;
esac
if [ $cuda = ON ]; then dir=$BUILD_DIR; else dir=$BUILD_DIR-cpu; fi
options=("${MAIN_OPTIONS[@]}" -DSLUICE_ENABLE_CUDA=$cuda)

if [ $print_config = 1 ]; then
  echo "bench config: CUDA $cuda ($why)"
  if [ $cuda = ON ] && ! command -v nvcc >/dev/null 2>&1; then echo "bench config: nvcc not found: CMake will build the CPU backend only"; fi
  echo "bench config: build folder $dir"
  echo "bench config: cmake ${options[*]}"
  exit 0
fi

scripts/setup.sh
[ $cuda = ON ] || echo "bench: CUDA OFF ($why): building the CPU backend only, in $dir (--device cuda or SLUICE_ENABLE_CUDA=ON builds CUDA)"
cmake -S . -B "$dir" "${options[@]}" >/dev/null
cmake --build "$dir" -j"$JOBS" --target sluice_cli
exec "$dir/tools/sluice/sluice" bench ${args[@]+"${args[@]}"}
