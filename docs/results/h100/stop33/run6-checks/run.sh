# stop 33, device run 6: the new pipeline defaults (words decoded in B, 2 buffers; u64 and partition's pass on the wide shape): checks and the 2^28 / 2^27 table
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>&1; echo "tests rc $?" >> $OUT/rc.txt
timeout 150 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 > $OUT/verify.log 2>&1; echo "verify rc $?" >> $OUT/rc.txt
timeout 200 $S bench --device cuda --suite production --n 2^28 --out $OUT/prod > $OUT/bench-production.log 2>&1; echo "bench rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod && rm -rf prod)
tar czf $OUT/logs.tgz -C $OUT tests-quick.log verify.log && rm $OUT/tests-quick.log $OUT/verify.log
cat $OUT/rc.txt; tar xzf $OUT/logs.tgz -O | grep -h "PASSED\|FAILED\|passed, " | tail -6
grep -E "(compact|partition|scan)" $OUT/bench-production.log | grep -E "n=(268435456|134217728)" | cut -c1-150
