# stop 34, device run 9: the build after the review (reduce's grid arithmetic tidied, no change in behaviour):
# GPU quick suite, verify of every cuda algorithm on the quick matrix, memcheck over reduce's verify, and
# reduce_tuning grid's rows once more
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 120 $S verify --device cuda --quick > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --algo vectorized --algo vectorized:dynamic=on > $OUT/san-memcheck.log 2>&1; echo "san memcheck rc $?" >> $OUT/rc.txt
timeout 120 .device/pt/reduce_tuning grid > $OUT/reduce_tuning-grid.log 2>&1; echo "reduce_tuning rc $?" >> $OUT/rc.txt
gzip $OUT/tests-quick.log $OUT/verify.log
cat $OUT/rc.txt; zcat $OUT/tests-quick.log.gz | tail -3; zcat $OUT/verify.log.gz | tail -1; grep -h "ERROR SUMMARY" $OUT/san-memcheck.log; grep -E "n=268435456 " $OUT/reduce_tuning-grid.log | cut -c1-120; tail -1 $OUT/reduce_tuning-grid.log
