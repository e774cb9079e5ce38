# stop 41, device run 5: the final build (the library as at stop 40's end): the production suite in the _async
# forms, every case and every power of two (issue 8's production figures), after verify --quick
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>&1; echo "verify quick rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production async %e s" timeout 520 $S bench --device cuda --suite production --async --out $OUT/w/prod-async > $OUT/w/bench-production-cuda-async.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run5.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -1 $OUT/w/verify-quick.log
sed -n '/^primitive /,$p' $OUT/w/bench-production-cuda-async.log | cut -c1-150 | head -60
