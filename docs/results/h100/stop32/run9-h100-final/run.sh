# stop 32, device run 9: the released, wide, lag-2 pipeline as the default for 4-byte predicates (and flags, pipelined=on)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 150 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
for t in memcheck racecheck synccheck; do timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
timeout 330 $S bench --device cuda --suite production --out $OUT/prod > $OUT/bench-production.log 2>&1; echo "bench rc $?" >> $OUT/rc.txt
cd $OUT && tar czf prod.tgz prod && rm -rf prod
tail -n 3 $OUT/tests-quick.log $OUT/verify.log $OUT/san-*.log; cat $OUT/rc.txt
