# stop 42, device run 6: the kernel review's leftovers (both pipelines run a round count fixed at their start, the
# scan holds its lagged tiles as arrays, partition_unordered shares run()'s single-pass kernel choice): the GPU
# tests of scan, compact and partition at the quick sizes (the huge ones left out), verify --quick, verify of the
# pipelines forced on (and on 7 blocks, so that each block runs many rounds), compute-sanitizer memcheck and
# synccheck over those to 100000 elements, racecheck to 20000
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*can*:*ompact*:*artition*:*apture*:*ynchronous*-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
/usr/bin/time -f "verify pipelined %e s" timeout 60 $S $V > $OUT/w/verify-pipelined.log 2>>$OUT/w/times.txt; echo "verify pipelined rc $?" >> $OUT/w/rc.txt
for t in memcheck synccheck; do /usr/bin/time -f "san $t %e s" timeout 70 compute-sanitizer --tool $t --error-exitcode 9 $S $V --max-size 100000 > $OUT/w/san-$t.log 2>>$OUT/w/times.txt; echo "san $t rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "san racecheck %e s" timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --max-size 20000 > $OUT/w/san-racecheck.log 2>>$OUT/w/times.txt; echo "san racecheck rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log; tail -4 $OUT/w/verify-pipelined.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log; tail -2 $OUT/w/san-racecheck.log
