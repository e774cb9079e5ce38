# stop 32, device run 20: the wide look-back as one helper (lookback::wide_lookback) for both pipelines
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 150 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
for t in memcheck racecheck synccheck; do timeout 200 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
stdbuf -oL timeout 100 .device/pt/scan_wide > $OUT/scan-wide.log 2>&1; echo "scan_wide rc $? (1: the old shape's f32 repeat)" >> $OUT/rc.txt
stdbuf -oL timeout 100 .device/pt/pipe_trace u32big 2>&1 | grep -v "^    " > $OUT/pipe-trace-u32.log; echo "pipe_trace rc $?" >> $OUT/rc.txt
tar czf $OUT/logs.tgz -C $OUT tests-quick.log verify.log && rm $OUT/tests-quick.log $OUT/verify.log
cat $OUT/rc.txt; tar xzf $OUT/logs.tgz -O | grep -h "PASSED\|FAILED\|SKIPPED\|passed, " | tail -5; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/san-*.log; grep "6v 3s\|(default)\|failures" $OUT/scan-wide.log $OUT/pipe-trace-u32.log
