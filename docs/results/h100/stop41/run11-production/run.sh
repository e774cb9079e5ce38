# stop 41, device run 11 (the build of run 10): the production suite in the synchronous forms (the count or the
# sum copied to the host inside the timing, for CUB alike), every case and every power of two (issue 8's figures):
# the default reduce's sum written into a mapped host slot, every other result or count of up to 16 bytes copied
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 150 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "production %e s" timeout 400 $S bench --device cuda --suite production --out $OUT/w/prod > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run11.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -3 $OUT/w/tests.log
awk '$3=="1024" || $3=="65536" || $3=="1048576" || $3=="268435456"' $OUT/w/bench-production-cuda.log | cut -c1-130
