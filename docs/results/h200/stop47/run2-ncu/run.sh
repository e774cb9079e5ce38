# stop 47, device run 2 (an H200): ncu of one launch each of the pipelines short of the H200's copy (2^28 u32:
# compact_if at 10% kept, partition's pass at 50%, the inclusive scan), the SASS of those three kernels
# (probe.cubin, built from the library's headers), the copy's own kernel if it has one, and the bulk copies with
# L2 evict_first policies (bench/bulk_copy_ceiling.cu l2).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
X=.device/extra
SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis --section InstructionStats"
prof() { name=$1; shift; /usr/bin/time -f "ncu $name %e s" timeout 150 ncu $SEC --launch-count 1 "$@" > $OUT/w/ncu-$name.txt 2>>$OUT/w/times.txt; echo "ncu $name rc $?" >> $OUT/w/rc.txt; }
prof compact_if10 -k regex:pipelined_compact --launch-skip 2 $X/pipe_trace ceiling
prof pass50 -k regex:pipelined_compact --launch-skip 2 $X/pipe_trace pass50
prof scan -k regex:pipelined_scan --launch-skip 2 $X/scan_wide ceiling
timeout 100 ncu --section LaunchStats --launch-count 3 $X/scan_wide ceiling > $OUT/w/ncu-first3.txt 2>&1; echo "first3 rc $?" >> $OUT/w/rc.txt
(which cuobjdump nvdisasm; cuobjdump --dump-resource-usage $X/probe.cubin) > $OUT/w/resources.txt 2>&1
cuobjdump -sass $X/probe.cubin > $OUT/w/probe.sass 2>&1; echo "sass rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "bulk l2 %e s" timeout 120 $X/bulk_copy_ceiling l2 > $OUT/w/bulk_copy_ceiling-l2.log 2>>$OUT/w/times.txt; echo "bulk l2 rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run2.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/resources.txt | cut -c1-200
for f in $OUT/w/ncu-*.txt; do echo "== $f"; grep -E "^  [a-zA-Z_]|Duration|DRAM Throughput|Compute \(SM\)|Issue Slots Busy|Issued Warp|Eligible Warps|No Eligible|Warp Cycles Per Issued|Executed Instructions  |SM Frequency|Registers Per" $f | cut -c1-150 | head -20; done
cat $OUT/w/bulk_copy_ceiling-l2.log
