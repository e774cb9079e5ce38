# stop 34, device run 4: ncu as run 3 (which ran out of time after the compactions) for partition_if at 90% kept
# (the reversed pass's kernel, 1 GiB u32) and reduce at 2^28 u32 (sluice's dynamic chunks, CUB's kernel)
cd "$(dirname "$0")/../../../../.."
S=.device/sluice
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
prof() { name=$1; t=$2; shift 2; timeout $t ncu $SEC --launch-count 1 "$@" > $OUT/ncu-$name.txt 2>&1; echo "$name rc $?" >> $OUT/rc.txt; }
prof partition_if-90-sluice 60 -k regex:pipelined_compact .device/pt/partition_tuning u32 ratio=0.9
B="$S bench --device cuda --suite production --n 2^28"
prof reduce-sluice 90 -k regex:dynamic_kernel $B --primitive reduce --algo best
prof reduce-cub 90 -k regex:DeviceReduceKernel $B --primitive reduce --algo cub
cat $OUT/rc.txt
for f in $OUT/ncu-*.txt; do echo "== $f"; grep -E "^  [a-z_]|Duration|DRAM Throughput|Compute \(SM\)|Issued Warp|Achieved Occupancy|Grid Size|Warp Cycles Per Issued" $f | cut -c1-150 | head -10; done
