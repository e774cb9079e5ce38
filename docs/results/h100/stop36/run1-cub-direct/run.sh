# stop 36, device run 1: the production suite with its CUB rows calling CUB directly (tools/sluice/cub_direct.hpp):
# the two GPU CLI tests of it, the whole suite in the _async forms, the synchronous forms at 2^16 and 2^28; then
# the kernels' own durations at 2^16 (ncu, warm L2 as in the timings) for reduce and the scan beside CUB's
cd "$(dirname "$0")/../../../../.."
tar xzf .device/pt.tar.gz -C .device
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
$S bench --device cuda --suite production --n 2^12 --primitive partition_if --out $OUT/t1 > $OUT/cli-cub-direct.log 2>&1; echo "cli partition_if rc $?" >> $OUT/rc.txt
$S bench --device cuda --suite production --n 2^12 --primitive reduce --async --out $OUT/t2 > $OUT/cli-cub-direct-async.log 2>&1; echo "cli reduce async rc $?" >> $OUT/rc.txt
grep -cE "partition_if +cub +u32 +n=4096 " $OUT/cli-cub-direct.log >> $OUT/rc.txt; grep -cE "reduce +cub async +(u32|f32) +n=4096 " $OUT/cli-cub-direct-async.log >> $OUT/rc.txt
rm -rf $OUT/t1 $OUT/t2
/usr/bin/time -f "production async %e s" timeout 400 $S bench --device cuda --suite production --async --out $OUT/prod-async > $OUT/bench-production-async.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
for n in 16 28; do
/usr/bin/time -f "production sync 2^$n %e s" timeout 150 $S bench --device cuda --suite production --n 2^$n --out $OUT/prod-sync-$n > $OUT/bench-production-sync-2p$n.log 2>>$OUT/times.txt; echo "bench sync 2^$n rc $?" >> $OUT/rc.txt
done
(cd $OUT && tar czf prod.tgz prod-async prod-sync-16 prod-sync-28 && rm -rf prod-async prod-sync-16 prod-sync-28)
for k in body_kernel single_kernel DeviceReduceKernel DeviceReduceSingleTileKernel scan_kernel DeviceScanKernel DeviceScanInitKernel; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 6 --launch-count 3 --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum .device/pt/small_sizes 16 > $OUT/ncu-$k.log 2>&1; echo "ncu $k rc $?" >> $OUT/rc.txt
done
cat $OUT/rc.txt $OUT/times.txt
grep -h -E "^ +[a-zA-Z_]+.*\(|gpu__time_duration" $OUT/ncu-*.log | cut -c1-120
grep -A400 "^primitive" $OUT/bench-production-async.log | grep -E " (1024|65536|268435456|134217728) " | cut -c1-140
grep -A80 "^primitive" $OUT/bench-production-sync-2p16.log | cut -c1-140
