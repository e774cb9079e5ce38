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
# in_turn REPS NAME=BINARY... -- ARGS...: each binary with ARGS, in turn, REPS times, the order reversed every other
# time (first A B C, then C B A), into $W/NAME-REP.txt; 300 s each at most.
in_turn() {
  local reps=$1; shift
  local bins=()
  while [ "$1" != -- ]; do bins+=("$1"); shift; done; shift
  for ((rep = 1; rep <= reps; ++rep)); do
    local order=("${bins[@]}")
    if ((rep % 2 == 0)); then order=(); for ((i = ${#bins[@]} - 1; i >= 0; --i)); do order+=("${bins[i]}"); done; fi
    for nb in "${order[@]}"; do t "${nb%%=*}-$rep" 300 "${nb#*=}" "$@"; mv "$W/${nb%%=*}-$rep.log" "$W/${nb%%=*}-$rep.txt"; done
  done
}
