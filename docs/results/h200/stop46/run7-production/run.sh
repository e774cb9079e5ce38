# stop 46, device run 7 (an H200): the whole production suite, synchronous and `_async`, on the library of run 6
# (reduce's 128 KiB chunks, the scan pipeline's 2 buffers); CSVs and logs tarred.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production sync %e s" timeout 200 $S bench --device cuda --suite production --out $OUT/w/sync > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "sync rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production async %e s" timeout 200 $S bench --device cuda --suite production --async --out $OUT/w/async > $OUT/w/bench-production-cuda-async.log 2>>$OUT/w/times.txt; echo "async rc $?" >> $OUT/w/rc.txt
rm -f $OUT/w/*/*.gp
(cd $OUT && tar czf run7.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
