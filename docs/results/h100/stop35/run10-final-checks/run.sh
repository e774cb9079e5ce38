# stop 35, device run 10: the final code (binaries of the CI clone of 4143578): GPU quick suite, verify of every
# cuda algorithm, compute-sanitizer memcheck and racecheck over reduce's new fold (vectorized:dynamic=on)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>>$OUT/times.txt; echo "tests rc $?" >> $OUT/rc.txt
/usr/bin/time -f "verify %e s" timeout 200 $S verify --device cuda --quick > $OUT/verify.log 2>>$OUT/times.txt; echo "verify rc $?" >> $OUT/rc.txt
V="verify --device cuda --quick --max-size 70000 --algo vectorized:dynamic=on"
for t in memcheck racecheck; do timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/rc.txt; done
gzip $OUT/tests-quick.log $OUT/verify.log
cat $OUT/rc.txt $OUT/times.txt; zcat $OUT/tests-quick.log.gz | tail -3; zcat $OUT/verify.log.gz | tail -1; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/san-*.log
