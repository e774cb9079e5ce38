#!/usr/bin/env bash
# Builds bench/pipe_trace.cu for sm_90 twice, as the device runs of the pipeline studies use it: without the round
# trace (.device/pipe_trace) and with it (-DSLUICE_PIPE_TRACE: .device/pipe_trace_traced), each stripped and
# gzipped into .device/ (a run's script gunzips them). SRC: the tree to build from (default: this one; a study
# branch's worktree, e.g. `git worktree add /tmp/study study/two-ended-w2`), using this tree's build/include (the
# generated config headers: run scripts/build.sh or cmake first).
set -eu
cd "$(dirname "$0")/.."
. scripts/env.sh
SRC=${SRC:-.}
root=$PWD
mkdir -p .device
build() {  # build OUT [FLAGS...]
  local out=$1
  shift
  (cd "$SRC" && nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr "$@" -Iinclude -I"$root/build/include" -Ibench \
    bench/pipe_trace.cu src/runtime.cpp src/gl/unavailable.cpp -o "$root/.device/$out")
  strip "$root/.device/$out"
  gzip -9f "$root/.device/$out"
}
build pipe_trace &
pid=$!
build pipe_trace_traced -DSLUICE_PIPE_TRACE
wait $pid
ls -la .device/pipe_trace*.gz
