# stop 41, device run 10: every synchronous result or count of up to 16 bytes brought to the host by one thread's
# copy into a mapped host slot (copy_to_host), the default reduce's sum written there directly: the GPU tests
# (quick sizes, the huge ones left out), verify --quick on the cuda device (its compact and partition calls are the
# synchronous forms), compute-sanitizer memcheck over verify --quick to 20000 elements, bench/sync_tail
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 240 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 90 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>&1; echo "verify quick rc $?" >> $OUT/w/rc.txt
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --max-size 20000 > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
timeout 60 .device/sync_tail > $OUT/w/sync-tail.log 2>&1; echo "sync_tail rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
(cd $OUT && tar czf run10.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED" | head; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY" $OUT/w/san-memcheck.log; tail -1 $OUT/w/san-memcheck.log
cat $OUT/w/sync-tail.log
