# stop 33, device run 9: flags compaction on the pipeline by default from 2^24 (pipelined=auto): GPU quick suite, and the compact primitive at 2^28 / 2^27
cd "$(dirname "$0")/../../../../.."
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 170 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 90 $S bench --device cuda --suite production --n 2^28 --primitive compact --out $OUT/p > $OUT/bench-compact.log 2>&1; echo "bench rc $?" >> $OUT/rc.txt
rm -rf $OUT/p; cat $OUT/rc.txt; tail -3 $OUT/tests-quick.log; grep -E "^compact +(u32|f32|u64|b128)" $OUT/bench-compact.log
