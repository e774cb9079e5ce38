# stop 36, device run 2: the partition rows again with the CUB peer that delivers sluice's result (CUB's partition,
# then the reversal of its rejected run) beside CUB alone (cub-unstable), in the _async forms at every size; then
# where a small reduce's time goes: the host's time by layer (bench/small_sizes) and the kernels' durations (ncu)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/pt.tar.gz -C .device
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
$S bench --device cuda --suite production --n 2^12 --primitive partition --out $OUT/w/t1 > $OUT/w/cli-partition.log 2>&1; echo "cli partition rc $?" >> $OUT/w/rc.txt
for p in partition partition_if; do
/usr/bin/time -f "production async $p %e s" timeout 200 $S bench --device cuda --suite production --async --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-$p-async.log 2>>$OUT/w/times.txt; echo "bench $p rc $?" >> $OUT/w/rc.txt
done
timeout 60 .device/pt/small_sizes 10,12,16 > $OUT/w/small_sizes.log 2>&1; echo "small_sizes rc $?" >> $OUT/w/rc.txt
for k in single_kernel DeviceReduceSingleTileKernel; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 6 --launch-count 3 --metrics gpu__time_duration.sum,sm__cycles_active.max .device/pt/small_sizes 12 > $OUT/w/ncu-$k-2p12.log 2>&1; echo "ncu $k rc $?" >> $OUT/w/rc.txt
done
for k in body_kernel DeviceReduceKernel scan_kernel DeviceScanKernel; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 6 --launch-count 3 --metrics gpu__time_duration.sum,sm__cycles_active.max .device/pt/small_sizes 16 > $OUT/w/ncu-$k-2p16.log 2>&1; echo "ncu $k rc $?" >> $OUT/w/rc.txt
done
rm -rf $OUT/w/t1
(cd $OUT && tar czf run2.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; grep -E "cub|wrote" $OUT/w/cli-partition.log
grep -h -E "^  [a-zA-Z_ ].*\(|gpu__time_duration" $OUT/w/ncu-*.log | cut -c1-110
grep -E "^host|n=(4096|65536) .*reduce" $OUT/w/small_sizes.log
for p in partition partition_if; do sed -n '/^primitive /,$p' $OUT/w/bench-$p-async.log | cut -c1-130; done
