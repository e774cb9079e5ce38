#!/usr/bin/env bash
# The files of `sluice bench`, on the CPU at small sizes: each suite's CSV has the documented header
# and 11 fields on every row, every figure has its gnuplot script and, where gnuplot is installed, its PNG; no
# partial file is left; and Ctrl-C (SIGINT) in the middle of a suite leaves neither a partial file nor a CSV.
# Usage: bench_outputs.sh SLUICE DIR
set -u
sluice=$1 dir=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
header="primitive,algorithm,device,element_type,n,valid_ratio,block_size,ms,gbps,fraction_of_memcpy,repetitions,machine_busy"
check_csv() {  # file, least rows
  [ -f "$1" ] || fail "no $1"
  [ "$(head -1 "$1")" = "$header" ] || fail "$1: header is not the documented one: $(head -1 "$1")"
  # Every row: 11 fields once quoted fields (specs with commas) count as one; n and ms positive; gbps empty or positive.
  awk -v least="$2" 'NR > 1 { line = $0; gsub(/"[^"]*"/, "q", line); nf = split(line, f, ",")
                              if (nf != 12 || f[5] + 0 <= 0 || f[8] + 0 <= 0 || (f[9] != "" && f[9] + 0 <= 0)) { print "bad row: " $0; bad = 1 }
                              rows++ }
                     END { if (rows < least) { print "only " rows " rows"; bad = 1 }; exit bad }' "$1" || fail "$1 is not the documented CSV"
}
check_figure() {  # stem
  [ -s "$dir/$1.gp" ] || fail "no gnuplot script $1.gp"
  if command -v gnuplot >/dev/null; then
    [ -s "$dir/$1.png" ] || fail "gnuplot is here but $1.png was not drawn"
    head -c 8 "$dir/$1.png" | od -An -c | grep -q "P   N   G" || fail "$1.png is not a PNG"
  else
    echo "note: gnuplot is not installed here: $1.png not checked (scripts/setup.sh installs gnuplot-nox)"
  fi
}
run() { "$sluice" bench --device cpu --out "$dir" "$@" > "$dir/log" 2>&1 || { cat "$dir/log"; fail "sluice bench $* exited $?"; }; }

run --suite ratio --n 2^14
check_csv "$dir/ratio-cpu.csv" 60 && check_figure ratio-cpu-billeter-fig3
grep -q '^\[ *[0-9.]* s\] compact' "$dir/log" || fail "no progress lines"
run --suite size --n 2^12
check_csv "$dir/size-cpu.csv" 60 && check_figure size-cpu-billeter-fig4
run --suite tables --n 2^13
check_csv "$dir/tables-cpu.csv" 20
grep -q "Billeter et al. 2009, Table 5" "$dir/tables-cpu.md" || fail "tables-cpu.md lacks Table 5"
run --suite quick --n 2^12 --primitive reduce
check_csv "$dir/quick-cpu.csv" 2 && check_figure quick-cpu-fraction
run --suite production --n 2^13 --primitive inclusive_scan
check_csv "$dir/production-cpu.csv" 2
ls "$dir"/*.partial >/dev/null 2>&1 && fail "partial files left: $(ls "$dir"/*.partial)"

# Ctrl-C in the middle of a suite: exit status 130, no partial file, no CSV posing as complete.
rm -f "$dir"/size-cpu*
"$sluice" bench --device cpu --suite size --n 2^26 --out "$dir" > "$dir/log-int" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^\[' "$dir/log-int" 2>/dev/null && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || { cat "$dir/log-int"; fail "interrupted bench exited $rc, not 130"; }
ls "$dir"/*.partial >/dev/null 2>&1 && fail "the interrupt left partial files"
[ -e "$dir/size-cpu.csv" ] && fail "the interrupted suite wrote its CSV"
grep -q "interrupted" "$dir/log-int" || fail "the interrupt was not said"
echo "bench outputs: ok"
