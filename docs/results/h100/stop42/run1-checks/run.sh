# stop 42, device run 1 (HEAD f2ac48c: stop 41's review refactor of the host slots, not yet run on the GPU):
# the GPU tests at the quick sizes (the huge ones left out), compute-sanitizer memcheck over the two slot tests,
# and verify --device cuda --quick
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 230 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_*' > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify %e s" timeout 250 $S verify --device cuda --quick > $OUT/w/verify.log 2>>$OUT/w/times.txt; echo "verify rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log $OUT/w/verify.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED|tests ran" | head; grep -h "ERROR SUMMARY" $OUT/w/san-memcheck.log; zcat $OUT/w/verify.log.gz | tail -3
