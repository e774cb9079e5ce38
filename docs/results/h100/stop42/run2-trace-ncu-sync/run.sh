# stop 42, device run 2 (HEAD's library): where the final compact_if's rounds go at 2^28 u32 (pipe_trace final,
# built with -DSLUICE_PIPE_TRACE: 10 / 50 / 90% kept and flags at 10%); ncu of one launch of the default
# compact_if at 10% kept and of CUB's; the production suite in the synchronous forms after the direct counts
# (issue 8's figures)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
timeout 120 .device/pipe_trace_traced final > $OUT/w/trace.log 2>&1; echo "trace rc $?" >> $OUT/w/rc.txt
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis"
prof() { name=$1; shift; timeout 120 ncu $SEC --launch-count 1 "$@" > $OUT/w/ncu-$name.txt 2>&1; echo "$name rc $?" >> $OUT/w/rc.txt; }
B="$S bench --device cuda --suite production --n 2^28 --primitive compact_if"
prof compact_if-sluice -k regex:pipelined_compact $B --algo best
prof compact_if-cub -k regex:DeviceSelectSweep $B --algo cub
/usr/bin/time -f "production %e s" timeout 330 $S bench --device cuda --suite production --out $OUT/w/prod > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run2.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; cat $OUT/w/trace.log
for f in $OUT/w/ncu-*.txt; do echo "== $f"; grep -E "^  [a-z_]|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Issued Warp|Achieved Occupancy|Registers Per|Grid Size|Block Size|Warp Cycles Per Issued|Stall" $f | head -24; done
awk '$3=="1024" || $3=="65536" || $3=="1048576" || $3=="268435456"' $OUT/w/bench-production-cuda.log | cut -c1-130
