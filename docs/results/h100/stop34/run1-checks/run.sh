# stop 34, device run 1: the build without the dead ask(none): the huge test (SLUICE_TEST_HUGE=1, never run with
# the pipelines' cases until now) in the background beside the quick suite, verify and the sanitizers (checks only)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
( SLUICE_TEST_HUGE=1 /usr/bin/time -f "huge %e s" timeout 570 .device/sluice_tests --gtest_filter='gpu.huge_inputs_past_32_bit_indices' > $OUT/tests-huge.log 2>&1; echo "huge rc $?" >> $OUT/rc.txt ) &
SLUICE_TEST_QUICK=1 timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 150 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
for t in memcheck synccheck racecheck; do /usr/bin/time -f "$t %e s" timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>>$OUT/times.txt; echo "san $t rc $?" >> $OUT/rc.txt; done
wait
tail -3 $OUT/tests-huge.log >> $OUT/times.txt
gzip $OUT/tests-quick.log $OUT/verify.log
cat $OUT/rc.txt $OUT/times.txt; zcat $OUT/tests-quick.log.gz | tail -4; zcat $OUT/verify.log.gz | tail -2; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/san-*.log; grep -h "OK \]\|FAILED\|Failure\|Expected\|Which is\|compact\|partition" $OUT/tests-huge.log | head -20
