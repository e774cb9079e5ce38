#!/usr/bin/env bash
# Runs on the GPU machine with binaries built here for sm_90 (scripts/stage_device.sh copies them to .device/):
# the test suite, the full CUDA verification, compute-sanitizer and the production benchmark.
# Usage: scripts/device_check.sh [steps...]   steps: tests verify sanitize sanitize-tests huge example bench cpu gl
# (default: tests verify sanitize example bench). gl: the gl device on the GPU's own OpenGL through EGL; needs the GL loader packages in .gl/ (carried;
# see docs/gl.md), unpacked first.
# HUGE_FILTER: the huge step's gtest filter (default gpu.huge*: the three huge tests, about 15 minutes on the H100:
# gpu.huge_inputs_past_32_bit_indices 345-415 s (359 s after the stop 26 re-land, 415 s in stop 28), once more than 420 s; more_forms 188-219 s; wide_elements 299-310 s;
# under a 10-minute limit per call, run the first alone with a limit near 590 s, the other two together).
# BENCH_SUITE: the suites of the bench step (default: production), e.g. "quick ratio blocksize tables".
set -u
BIN=${BIN:-.device}
OUT=${OUT:-device-out}
mkdir -p "$OUT"
# As scripts/stage_device.sh packs them; not again where they are unpacked already (the mtimes of unpacking, -m), so
# that a binary another process is running is not rewritten under it.
if [ -f "$BIN/bins.tar.gz" ] && { [ ! -x "$BIN/sluice" ] || [ "$BIN/bins.tar.gz" -nt "$BIN/sluice" ]; }; then
  tar xzmf "$BIN/bins.tar.gz" -C "$BIN"
fi
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
steps=${*:-tests verify sanitize example bench}
status=0
step() { echo "== $1 ($(date +%T))"; }
# sanitized LOG LABEL LIMIT ARGS...: compute-sanitizer ARGS (its options, then the program and its arguments)
# for at most LIMIT seconds into LOG; prints LABEL, the exit status and the summaries; fails the run unless 0.
sanitized() {
  local log=$1 label=$2 limit=$3
  shift 3
  timeout "$limit" compute-sanitizer --error-exitcode 9 --print-limit 20 "$@" > "$log" 2>&1
  local rc=$?
  echo "  $label: rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, |PASSED|FAILED  \]' "$log" | tail -3 | tr '\n' ' ')"
  [ $rc = 0 ] || status=1
}
for s in $steps; do
  case $s in
    tests)
      step "test suite (quick matrix)"
      # first, alone in its process: the first sluice calls of a process inside a stream capture
      timeout 120 "$BIN/sluice_tests" --gtest_brief=1 --gtest_filter=gpu.first_calls_of_a_process_may_come_inside_a_capture 2>&1 |
        tee "$OUT/tests-first-calls.log" | tail -3
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      SLUICE_TEST_QUICK=1 timeout 900 "$BIN/sluice_tests" --gtest_brief=1 2>&1 | tee "$OUT/tests.log" | tail -15
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    verify)
      step "sluice verify --device cuda --algo all"
      timeout 1200 "$BIN/sluice" verify --device cuda --algo ${VERIFY_ALGO:-all} 2>&1 | tee "$OUT/verify-cuda.log" | tail -20
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    sanitize)
      for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
        step "compute-sanitizer --tool $tool"
        for algo in ${SANITIZE_ALGOS:-two-pass reduce-then-scan scan-scatter warp-atomic cub}; do
          # --jobs 1: one algorithm at a time. Where verify runs several on host threads at once, racecheck loses
          # track of a launch and hangs (stop 43, runs 6-8: over the pipelines' cooperative launches).
          sanitized "$OUT/sanitize-$tool-$algo.log" "$tool $algo" ${SANITIZE_TIMEOUT:-120} --tool $tool \
            "$BIN/sluice" verify --device cuda --quick --jobs 1 --max-size ${SANITIZE_MAX:-70000} --algo $algo
        done
      done ;;
    sanitize-tests)
      # compute-sanitizer over the GPU tests of the test binary (SANITIZE_TESTS, default every GPU test: gpu.*,
      # the API-level tests: misaligned moves, CUDA graphs, cooperative and pipelined paths, huge tests excluded
      # unless SLUICE_TEST_HUGE is set; cuda/*, the papers' and the production variants' parameters; and
      # registry/*cuda*, every CUDA entry on the generator matrix). SLUICE_TEST_SANITIZE=1: the matrix stops at
      # 2^14 + 1 elements and the large scan, compaction and partition tests run smaller inputs with their paths
      # named, the pipeline on 7 blocks so that each takes several rounds (tests/test_api.cpp, sanitizing()).
      # API errors the tests provoke on purpose (out of memory, host pointers) are not reported; memory, race,
      # barrier and initialization errors are. One tool takes minutes (racecheck the longest, about a minute per
      # papers' block-compaction variant at 2^14 + 1; SLUICE_TEST_MAX_SIZE=4097 lowers the cap): under the device
      # tool's 10-minute limit, run one or two per call (SANITIZE_TOOLS) or part of the tests (SANITIZE_TESTS).
      # SLUICE_TEST_MAX_SIZE=N and SLUICE_TEST_SAMPLE=K thin the matrix further (tests/test_verify.cpp).
      # SANITIZE_JOBS=J (default 1): the tests dealt round-robin to J compute-sanitizer processes run side by
      # side (the host's cores do most of racecheck's work), one log each: sanitize-tests-TOOL-K.log.
      filter=${SANITIZE_TESTS:-gpu.*:cuda/*:registry/*cuda*}
      jobs=${SANITIZE_JOBS:-1}
      for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
        step "compute-sanitizer --tool $tool over the tests $filter ($jobs at a time)"
        if [ "$jobs" = 1 ]; then
          SLUICE_TEST_QUICK=1 SLUICE_TEST_SANITIZE=1 sanitized "$OUT/sanitize-tests-$tool.log" "$tool" ${SANITIZE_TIMEOUT:-600} --tool $tool --report-api-errors no \
            "$BIN/sluice_tests" --gtest_filter="$filter"
          continue
        fi
        # the full names: a suite line ends in '.', its tests follow indented; parameter comments dropped
        mapfile -t names < <("$BIN/sluice_tests" --gtest_list_tests --gtest_filter="$filter" |
          awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}')
        for ((k = 0; k < jobs; k++)); do
          part=""
          for ((i = k; i < ${#names[@]}; i += jobs)); do part="$part${part:+:}${names[i]}"; done
          [ -n "$part" ] || continue
          ( SLUICE_TEST_QUICK=1 SLUICE_TEST_SANITIZE=1 sanitized "$OUT/sanitize-tests-$tool-$k.log" "$tool part $k" ${SANITIZE_TIMEOUT:-600} --tool $tool --report-api-errors no \
              "$BIN/sluice_tests" --gtest_filter="$part"; exit $status ) &
        done
        for job in $(jobs -p); do wait "$job" || status=1; done
      done ;;
    huge)
      step "huge inputs: more than 2^32 one-byte and 2^31 four-, eight- and sixteen-byte elements (up to about 72 GB of device memory)"
      SLUICE_TEST_HUGE=1 timeout 1200 "$BIN/sluice_tests" --gtest_filter="${HUGE_FILTER:-gpu.huge*}" 2>&1 | tee "$OUT/huge.log" | tail -8
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    example)
      step "installed-package example"
      "$BIN/example" 2>&1 | tee "$OUT/example.log"
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
    bench)
      for suite in ${BENCH_SUITE:-production}; do  # one or several suites: BENCH_SUITE="ratio blocksize tables"
        step "sluice bench --device cuda --suite $suite"
        timeout 900 "$BIN/sluice" bench --device cuda --suite $suite --out "$OUT" > "$OUT/bench-$suite.log" 2>&1
        rc=$?
        tail -${BENCH_TAIL:-8} "$OUT/bench-$suite.log"
        [ $rc = 0 ] || { echo "  bench $suite: rc=$rc"; status=1; }
      done ;;
    gl)
      step "gl device: sluice verify --device gl --algo all, then sluice bench --suite gl"
      if [ -d .gl ]; then for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; fi
      [ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] &&
        export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
      timeout 900 "$BIN/sluice" verify --device gl --algo ${VERIFY_ALGO:-all} 2>&1 | tee "$OUT/verify-gl.log" | tail -8
      [ "${PIPESTATUS[0]}" = 0 ] || status=1
      timeout 900 "$BIN/sluice" bench --suite gl --out "$OUT" > "$OUT/bench-gl.log" 2>&1
      rc=$?
      tail -${BENCH_TAIL:-30} "$OUT/bench-gl.log"
      [ $rc = 0 ] || { echo "  bench gl: rc=$rc"; status=1; } ;;
    cpu)
      step "CPU backend on this host: verify at every SIMD level, then the production suite"
      nproc; grep -m1 'model name' /proc/cpuinfo
      for level in avx512 avx2 scalar; do
        echo "  verify simd=$level: $(SLUICE_CPU_SIMD=$level timeout 600 "$BIN/sluice" verify --device cpu 2>&1 | tail -1)"
      done
      timeout 900 "$BIN/sluice" bench --device cpu --suite production --n ${CPU_N:-2^26} --out "$OUT" 2>&1 | tee "$OUT/bench-cpu.log" | tail -40
      [ "${PIPESTATUS[0]}" = 0 ] || status=1 ;;
  esac
done
echo "device_check: status $status"
exit $status
