# stop 46, device run 5 (an H200): reduce's dynamic chunks of 128 KiB (the library now; 64 KiB before): the
# `_async` production suite's reduce at every power of two, twice, and bench/reduce_tuning.cu dynamic (the
# library's rows are the 128 KiB chunks); the scan pipeline with two buffers and 3-4 blocks an SM
# (bench/scan_wide.cu buffers) against the library's three buffers.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
S=.device/sluice X=.device/extra
for i in 1 2; do
  /usr/bin/time -f "reduce async $i %e s" timeout 60 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/reduce$i > $OUT/w/reduce$i.log 2>>$OUT/w/times.txt; echo "reduce $i rc $?" >> $OUT/w/rc.txt
done
/usr/bin/time -f "reduce_tuning dynamic %e s" timeout 150 $X/reduce_tuning dynamic > $OUT/w/reduce_tuning-dynamic.log 2>>$OUT/w/times.txt; echo "reduce_tuning dynamic rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "scan_wide buffers %e s" timeout 200 $X/scan_wide buffers > $OUT/w/scan_wide-buffers.log 2>>$OUT/w/times.txt; echo "scan_wide rc $?" >> $OUT/w/rc.txt
rm -f $OUT/w/*/*.gp
(cd $OUT && tar czf run5.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for i in 1 2; do grep -E "^reduce" $OUT/w/reduce$i/production-cuda-async.csv | awk -F, '$5>=16777216 {print $2,$4,$5,$8,$10}'; done
grep -E "n=(67108864|134217728|268435456|1073741824)" $OUT/w/reduce_tuning-dynamic.log | grep -E "cub  |library|8 x 4|8 x 8" | cut -c1-125
cat $OUT/w/scan_wide-buffers.log
