# stop 40, device run 8: ncu of one launch of the cases still short of their goals (2^28 u32, 2^27 u64, 10% kept
# first in the suite): compact_if u32 and u64 by the pipeline's new shapes (u32 7 vectors; u64 6, ranks packed),
# and compact with flags (7 vectors) beside them; the sections of stop 34's run 3
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
S=.device/sluice
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats"
prof() { name=$1; shift; timeout 150 ncu $SEC --launch-count 1 "$@" > $OUT/ncu-$name.txt 2>&1; echo "$name rc $?" >> $OUT/rc.txt; }
B="$S bench --device cuda --suite production --async --n 2^28"
prof compact_if-u32-sluice --kernel-name-base demangled -k 'regex:pipelined_compact_kernel<unsigned int' $B --primitive compact_if --algo best
prof compact_if-u64-sluice --kernel-name-base demangled -k 'regex:pipelined_compact_kernel<unsigned long' $B --primitive compact_if --algo best
prof compact-flags-sluice -k regex:pipelined_compact $B --primitive compact --algo best
cat $OUT/rc.txt
for f in $OUT/ncu-*.txt; do echo "== $f"; grep -E "^  [a-z_]|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Issued Warp|Achieved Occupancy|Registers Per|Grid Size|Block Size|Warp Cycles Per Issued|Eligible|No Eligible|Dynamic Shared" $f | head -20; done
