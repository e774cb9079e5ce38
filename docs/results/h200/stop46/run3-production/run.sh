# stop 46, device run 3 (an H200): the whole production suite on the final library, synchronous and `_async`,
# then two more `_async` sweeps of reduce alone (every power of two), the CSVs and logs tarred.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production sync %e s" timeout 200 $S bench --device cuda --suite production --out $OUT/w/sync > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "sync rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production async %e s" timeout 200 $S bench --device cuda --suite production --async --out $OUT/w/async > $OUT/w/bench-production-cuda-async.log 2>>$OUT/w/times.txt; echo "async rc $?" >> $OUT/w/rc.txt
for i in 1 2; do
  /usr/bin/time -f "reduce async $i %e s" timeout 60 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/reduce$i > $OUT/w/reduce$i.log 2>>$OUT/w/times.txt; echo "reduce $i rc $?" >> $OUT/w/rc.txt
done
rm -f $OUT/w/*/*.gp
(cd $OUT && tar czf run3.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
tail -5 $OUT/w/bench-production-cuda.log; tail -5 $OUT/w/bench-production-cuda-async.log
