# stop 41, device run 9: the synchronous reduce writes its sum into a mapped host slot (the default's kernels):
# the GPU tests of the API (reduce, capture, scratch, threads) and of reduce, verify of reduce, compute-sanitizer
# memcheck over the new test, bench/sync_tail (its "api" row now the mapped path), and the production suite's
# reduce rows in the synchronous form at every power of two
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_filter='gpu.*:api.*:*educe*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 60 $S verify --device cuda --algo vectorized --algo vectorized:dynamic=on > $OUT/w/verify-reduce.log 2>&1; echo "verify reduce rc $?" >> $OUT/w/rc.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_reduces*' > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
timeout 60 .device/sync_tail > $OUT/w/sync-tail.log 2>&1; echo "sync_tail rc $?" >> $OUT/w/rc.txt
timeout 150 $S bench --device cuda --suite production --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce.log 2>&1; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run9.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt; tail -3 $OUT/w/tests.log; tail -2 $OUT/w/verify-reduce.log; grep -h "ERROR SUMMARY" $OUT/w/san-memcheck.log
cat $OUT/w/sync-tail.log; grep -E "^reduce " $OUT/w/bench-reduce.log | cut -c1-140
