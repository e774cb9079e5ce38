# stop 34, device run 7: the build with reduce's dynamic grid at the resident count: GPU quick suite, verify of
# reduce (dynamic=auto and on) and compute-sanitizer memcheck and racecheck over it
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
V="verify --device cuda --quick --algo vectorized --algo vectorized:dynamic=on"
timeout 100 $S $V > $OUT/verify-reduce.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
for t in memcheck racecheck; do timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
SLUICE_TEST_QUICK=1 timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 60 $S bench --device cuda --suite production --n 2^28 --primitive reduce --out $OUT/r > $OUT/bench-reduce-2e28.log 2>&1; echo "bench rc $?" >> $OUT/rc.txt; rm -rf $OUT/r
gzip $OUT/tests-quick.log
cat $OUT/rc.txt; zcat $OUT/tests-quick.log.gz | tail -3; tail -2 $OUT/verify-reduce.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/san-*.log; grep -E "^reduce" $OUT/bench-reduce-2e28.log
