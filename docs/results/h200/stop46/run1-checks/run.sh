# stop 46, device run 1 (prepared in stop 45; build: main, scripts/stage_device.sh; carry .device and .gl):
# stop 45's last library (reduce's one-block kernel with redux.sync and unrolled combination, commit 4675ec9)
# has not run the GPU tests: the GPU tests (quick matrix, huge ones excluded), verify --quick, memcheck over verify
# of reduce's default, and the `_async` reduce at 2^10-2^13 beside CUB, three sweeps.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 260 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --algo vectorized --max-size 100000 > $OUT/w/san-memcheck-reduce.log 2>&1; echo "memcheck reduce rc $?" >> $OUT/w/rc.txt
for i in 1 2 3; do for e in 10 11 12 13; do timeout 30 $S bench --device cuda --suite production --async --primitive reduce --n 2^$e --out $OUT/w/r$i-$e >> $OUT/w/reduce-small.log 2>&1; done; done
mkdir -p $OUT/w/csv; for i in 1 2 3; do for e in 10 11 12 13; do tail -n +2 $OUT/w/r$i-$e/production-cuda-async.csv | sed "s/^/$i,/" >> $OUT/w/csv/reduce-small.csv; done; done; rm -rf $OUT/w/r*-*
gzip $OUT/w/tests.log
(cd $OUT && tar czf run1.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED"; tail -1 $OUT/w/verify-quick.log; tail -1 $OUT/w/san-memcheck-reduce.log
grep "^[0-9],reduce" $OUT/w/csv/reduce-small.csv | cut -d, -f1-6,9
