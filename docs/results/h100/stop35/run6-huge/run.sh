# stop 35, device run 6: the final build (binaries of the CI clone of fd32b14): the huge test, whose reduce of
# 2^31 + 1000 u32 folds 131072 chunk partials (16 groups of 1024 a warp) with the new fold, exact
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
SLUICE_TEST_HUGE=1 /usr/bin/time -f "huge %e s" timeout 580 .device/sluice_tests --gtest_filter='gpu.huge_inputs_past_32_bit_indices' > $OUT/tests-huge.log 2>&1; echo "huge rc $?" >> $OUT/rc.txt
cat $OUT/rc.txt; grep -h "OK \]\|FAILED\|Failure\|Expected\|Which is\|reduce\|huge %e\|huge [0-9]" $OUT/tests-huge.log | head -20; tail -3 $OUT/tests-huge.log
