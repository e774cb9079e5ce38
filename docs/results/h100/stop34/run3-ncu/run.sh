# stop 34, device run 3: ncu of one launch each of the cases short of their goals (2^28 u32, 2^27 u64):
# compact_if at 10% kept, compact with flags at 10%, compact_if u64 at 10%, partition_if at 90% (the reversed
# pass), reduce; sluice's kernel and CUB's beside it
cd "$(dirname "$0")/../../../../.."
S=.device/sluice
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
prof() { name=$1; shift; timeout 150 ncu $SEC --launch-count 1 "$@" > $OUT/ncu-$name.txt 2>&1; echo "$name rc $?" >> $OUT/rc.txt; }
B="$S bench --device cuda --suite production --n 2^28"
prof compact_if-sluice -k regex:pipelined_compact $B --primitive compact_if --algo best
prof compact_if-cub -k regex:DeviceSelectSweep $B --primitive compact_if --algo cub
prof compact-flags-sluice -k regex:pipelined_compact $B --primitive compact --algo best
prof compact-flags-cub -k regex:DeviceSelectSweep $B --primitive compact --algo cub
prof compact_if-u64-sluice --kernel-name-base demangled -k 'regex:pipelined_compact_kernel<unsigned long' $B --primitive compact_if --algo best
prof compact_if-u64-cub --kernel-name-base demangled -k 'regex:DeviceSelectSweepKernel.*unsigned long' $B --primitive compact_if --algo cub
prof partition_if-90-sluice -k regex:pipelined_compact .device/pt/partition_tuning u32 ratio=0.9
prof reduce-sluice -k regex:dynamic_kernel $B --primitive reduce --algo best
prof reduce-cub -k regex:DeviceReduceKernel $B --primitive reduce --algo cub
cat $OUT/rc.txt
for f in $OUT/ncu-*.txt; do echo "== $f"; grep -E "^  [a-z_]|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Issued Warp|Achieved Occupancy|Registers Per|Grid Size|Block Size|Warp Cycles Per Issued" $f | head -14; done
