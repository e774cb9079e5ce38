# stop 32, device run 11: the scan's pipeline released + wide (6 vectors, 3 buffers, lag 2) as the default
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 150 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
for t in memcheck racecheck synccheck; do timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
SLUICE_TEST_SANITIZE=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.large_*scan*' --gtest_brief=1 > $OUT/san-large-scans.log 2>&1; echo "san large scans rc $?" >> $OUT/rc.txt
stdbuf -oL timeout 200 .device/pt/scan_wide > $OUT/scan-wide.log 2>&1; echo "scan_wide rc $?" >> $OUT/rc.txt
for p in inclusive_scan exclusive_scan; do timeout 150 $S bench --device cuda --suite production --primitive $p --out /tmp/p$p >> $OUT/bench-scans.log 2>&1; echo "bench $p rc $?" >> $OUT/rc.txt; done
tail -n 3 $OUT/tests-quick.log $OUT/verify.log $OUT/san-*.log; cat $OUT/rc.txt; grep "of copy" $OUT/scan-wide.log
