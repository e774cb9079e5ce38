# Sourced first by a device run's script (docs/results/h100/stopNN/runN/run.sh), from the repository root:
# the OpenGL packages in .gl/ unpacked (where carried), the binaries that scripts/stage_device.sh packed into
# .device/bins.tar.gz unpacked (where carried), their runtime libraries on LD_LIBRARY_PATH, and the GPU's name
# and memory written to $OUT/gpu.txt.
if compgen -G ".gl/*.deb" >/dev/null; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
[ -f .device/bins.tar.gz ] && tar xzmf .device/bins.tar.gz -C .device  # -m: scripts/device_check.sh then leaves them
export LD_LIBRARY_PATH=$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,memory.total --format=csv > "$OUT/gpu.txt"
# A run's working folder (results are copied out of it at the end: `tar czf $OUT/runN.tgz -C $(dirname $W) w`).
W=$(mktemp -d)/w && mkdir -p "$W"
# t NAME LIMIT CMD...: CMD for at most LIMIT seconds, its output in $W/NAME.log, its time in $W/times.txt and its exit
# status in $W/rc.txt.
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout "$limit" "$@" > "$W/$name.log" 2>>"$W/times.txt"; echo "$name rc $?" >> "$W/rc.txt"; }
# turn_order REP ITEM...: the items one a line, in their order where REP is odd and reversed where it is even (in_turn
# and ab: first A B C, then C B A).
turn_order() {
  local rep=$1; shift
  if ((rep % 2)); then printf '%s\n' "$@"; else for ((i = $#; i >= 1; --i)); do printf '%s\n' "${!i}"; done; fi
}
# in_turn REPS NAME=BINARY... -- ARGS...: each binary with ARGS, in turn, REPS times, the order reversed every other
# time (first A B C, then C B A), into $W/NAME-REP.txt; 300 s each at most.
in_turn() {
  local reps=$1; shift
  local bins=()
  while [ "$1" != -- ]; do bins+=("$1"); shift; done; shift
  for ((rep = 1; rep <= reps; ++rep)); do
    local order; mapfile -t order < <(turn_order "$rep" "${bins[@]}")
    for nb in "${order[@]}"; do t "${nb%%=*}-$rep" 300 "${nb#*=}" "$@"; mv "$W/${nb%%=*}-$rep.log" "$W/${nb%%=*}-$rep.txt"; done
  done
}
# keep: what the run has in $W so far, packed into $OUT/run.tgz (one file: a call returns only the first of many
# files under $OUT); call it after each step that matters, so a run cut short still returns what it finished.
keep() { tar czf "$OUT/run.tgz" -C "$(dirname "$W")" "$(basename "$W")"; }
# ab_n REPS "PRIMITIVES" "SIZES" NAME=SLUICE... -- ARGS...: `SLUICE bench --device cuda --suite production --primitive P
# --n N ARGS` for each primitive P and each size N of SIZES (each build called alike, for builds whose command lines
# differ in anything else), the binaries in turn REPS times (reversed every other time), each into
# $W/ab/NAME-REP-P-N/; 60 s each at most. SIZES empty: the suite's own sizes, one call a primitive, into
# $W/ab/NAME-REP-P/, 90 s each at most (ab).
ab_n() {
  local reps=$1 prims=$2 sizes=$3; shift 3
  local bins=()
  while [ "$1" != -- ]; do bins+=("$1"); shift; done; shift
  for ((rep = 1; rep <= reps; ++rep)); do
    local order; mapfile -t order < <(turn_order "$rep" "${bins[@]}")
    for p in $prims; do for n in ${sizes:-all}; do for nb in "${order[@]}"; do
      local name="${nb%%=*}-$rep-$p" limit=90 size=()
      if [ "$n" != all ]; then name+="-$n" limit=60 size=(--n "$n"); fi
      t "ab-$name" $limit "${nb#*=}" bench --device cuda --suite production --primitive "$p" "${size[@]}" "$@" --out "$W/ab/$name"
      rm -f "$W/ab/$name"/*.gp "$W/ab/$name"/*.png
    done; done; done
  done
}
# ab REPS "PRIMITIVES" NAME=SLUICE... -- ARGS...: ab_n at the suite's own sizes (2^10 .. 2^30 on the GPU).
ab() {
  local reps=$1 prims=$2; shift 2
  ab_n "$reps" "$prims" "" "$@"
}
# ab_summary: one line per step of ab: the sluice rows' element type / valid ratio : fraction of the copy.
ab_summary() {
  for d in "$W"/ab/*; do
    echo "$(basename "$d") $(grep -h -v -E '^copy|cub|^primitive' "$d"/*.csv | awk -F, '{printf "%s/%s:%.3f ", $4, $6, $10}')"
  done
}
# pipeline_checks SLUICE TESTS: the GPU tests (quick matrix, the huge ones left out), verify --quick, the pipelines
# forced on (full grid and 7 blocks), and memcheck, racecheck and synccheck over the pipelines on 7 blocks; then
# prints the failed steps, the tests' tail and each check's summary line.
pipeline_checks() {
  local s=$1 tests=$2
  SLUICE_TEST_QUICK=1 t tests 300 "$tests" --gtest_brief=1 --gtest_filter='-gpu.huge*'
  t verify-quick 60 "$s" verify --device cuda --quick
  t verify-pipelined 120 "$s" verify --device cuda --algo decoupled-lookback:pipelined=on \
    --algo decoupled-lookback:pipelined=on,blocks=7
  local p=(--device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7)
  for tool in memcheck racecheck synccheck; do
    t "san-$tool-pipelined" 60 compute-sanitizer --tool $tool --error-exitcode 9 "$s" verify "${p[@]}"
  done
  gzip -f "$W/tests.log"
  grep -v " rc 0" "$W/rc.txt"; zcat "$W/tests.log.gz" | tail -3
  for f in "$W"/verify*.log "$W"/san-*.log; do
    echo "$(basename "$f"): $(grep -E 'SUMMARY|passed, ' "$f" | tail -2 | tr '\n' ' ')"
  done
}
