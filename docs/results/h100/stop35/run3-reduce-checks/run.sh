# stop 35, device run 3: the build with reduce's new fold of the partials (8 loads a lane): the GPU quick suite,
# verify of reduce (dynamic=auto and on) alone and under memcheck and racecheck, reduce_tuning fold (4, 8, 16
# loads a lane beside CUB), then the production sweep of reduce in both forms (synchronous and --async)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>>$OUT/times.txt; echo "tests rc $?" >> $OUT/rc.txt
timeout 120 $S verify --device cuda --quick --algo vectorized --algo vectorized:dynamic=on > $OUT/verify-reduce.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 70000 --algo vectorized:dynamic=on --algo vectorized"
for t in memcheck racecheck; do /usr/bin/time -f "$t %e s" timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>>$OUT/times.txt; echo "san $t rc $?" >> $OUT/rc.txt; done
/usr/bin/time -f "fold %e s" timeout 120 .device/pt/reduce_tuning fold > $OUT/reduce_tuning-fold.log 2>>$OUT/times.txt; echo "fold rc $?" >> $OUT/rc.txt
/usr/bin/time -f "reduce sync %e s" timeout 150 $S bench --device cuda --suite production --primitive reduce --out $OUT/prod-sync > $OUT/bench-reduce-sync.log 2>>$OUT/times.txt; echo "bench sync rc $?" >> $OUT/rc.txt
/usr/bin/time -f "reduce async %e s" timeout 150 $S bench --device cuda --suite production --primitive reduce --async --out $OUT/prod-async > $OUT/bench-reduce-async.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod-sync prod-async && rm -rf prod-sync prod-async)
gzip $OUT/tests-quick.log
cat $OUT/rc.txt $OUT/times.txt; zcat $OUT/tests-quick.log.gz | tail -4; tail -2 $OUT/verify-reduce.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/san-*.log
grep -E "FAIL|n=(16777216|33554432|67108864|134217728|268435456|1073741824) " $OUT/reduce_tuning-fold.log | grep -v copy | cut -c1-125
for f in sync async; do grep -A80 "^primitive" $OUT/bench-reduce-$f.log | awk '$1=="reduce" {printf "%s %d:%s ", $2, log($3)/log(2)+0.5, $(NF-2)} END {print ""}'; done
