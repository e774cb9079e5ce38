# stop 45, device run 5 (HEAD 5a4296b's build, scripts/stage_device.sh): the goals' table at 2^28 (2^27 for 8- and
# 16-byte elements) once more on another machine, `_async` and synchronous (run 3's `_async` scans came out
# 0.947-0.951 where run 2's synchronous ones were 0.963-0.968), and reduce `_async` at 2^10-2^13 five times
# (the suite's one-call timings there move by 0.5-1.5 us from run to run).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "table async %e s" timeout 150 $S bench --device cuda --suite production --async --n 2^28 --out $OUT/w/table-async > $OUT/w/table-async.log 2>>$OUT/w/times.txt; echo "table async rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "table sync %e s" timeout 150 $S bench --device cuda --suite production --n 2^28 --out $OUT/w/table-sync > $OUT/w/table-sync.log 2>>$OUT/w/times.txt; echo "table sync rc $?" >> $OUT/w/rc.txt
for i in 1 2 3 4 5; do for e in 10 11 12 13; do timeout 30 $S bench --device cuda --suite production --async --primitive reduce --n 2^$e --out $OUT/w/r$i-$e >> $OUT/w/reduce-small.log 2>&1; done; done; echo "reduce small rc $?" >> $OUT/w/rc.txt
mkdir -p $OUT/w/csv; cp $OUT/w/table-async/production-cuda-async.csv $OUT/w/csv/table-async.csv; cp $OUT/w/table-sync/production-cuda.csv $OUT/w/csv/table-sync.csv
for i in 1 2 3 4 5; do for e in 10 11 12 13; do tail -n +2 $OUT/w/r$i-$e/production-cuda-async.csv | sed "s/^/$i,/" >> $OUT/w/csv/reduce-small.csv; done; done
rm -rf $OUT/w/table-async $OUT/w/table-sync $OUT/w/r*-*
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; grep -c . $OUT/w/csv/reduce-small.csv
