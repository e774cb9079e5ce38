# stop 48, device run 4 (an H200): the README's main job (`sluice bench --out`) on this stop's library; ncu of one
# launch (the second) of the compact's pipeline in compact_if's and partition_unordered_if's production rows at
# 2^28 (the first rows: u32 at 10% kept), this stop's library (.device/sluice) and stop 47's (.device/old/sluice).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w .device/old && tar xJf .device/old.tar.xz -C .device/old
S=.device/sluice
/usr/bin/time -f "main-job %e s" timeout 150 $S bench --out $OUT/w/main-job > $OUT/w/main-job.log 2>>$OUT/w/times.txt; echo "main-job rc $?" >> $OUT/w/rc.txt
SEC="--section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats --section InstructionStats"
prof() { name=$1; shift; /usr/bin/time -f "ncu $name %e s" timeout 100 ncu $SEC -k regex:pipelined_compact --launch-skip 1 --launch-count 1 "$@" > $OUT/w/ncu-$name.txt 2>>$OUT/w/times.txt; echo "ncu $name rc $?" >> $OUT/w/rc.txt; }
for p in compact_if partition_unordered_if; do
  prof $p-new $S bench --device cuda --suite production --async --primitive $p --n 2^28 --out $OUT/w/ncu-$p-new
  prof $p-old .device/old/sluice bench --device cuda --suite production --async --primitive $p --n 2^28 --out $OUT/w/ncu-$p-old
done
rm -f $OUT/w/*/*.gp
(cd $OUT && tar czf run4.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -5 $OUT/w/main-job.log
for f in $OUT/w/ncu-*.txt; do echo "== $f"; grep -E "pipelined_compact_kernel|Duration|DRAM Throughput|Issue Slots Busy|Eligible Warps|No Eligible|Warp Cycles Per Issued|Executed Instructions  |SM Frequency" $f | sed 's/sluice::cuda_backend:://g' | cut -c1-140 | head -12; done
