# stop 32, device run 1: HEAD 8fe3efa checks (quick suite, verify, sanitizers)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 120 $S verify --device cuda --quick --algo decoupled-lookback:phased=on --algo decoupled-lookback --algo tile-atomic > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
for t in memcheck racecheck synccheck; do timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $S verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:phased=on --algo decoupled-lookback > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
tail -3 $OUT/*.log
