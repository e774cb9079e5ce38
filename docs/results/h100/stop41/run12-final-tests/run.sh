# stop 41, device run 12 (the build of run 11, the final code): the GPU tests at the quick sizes (the huge ones
# left out; run 11's 150 s cut them short) and verify --quick on the cuda device
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 330 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 90 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>&1; echo "verify quick rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED|tests ran" | head; tail -1 $OUT/w/verify-quick.log
