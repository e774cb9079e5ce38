# stop 44, device run 2 (two-ended staging and the cursor adopted in the compact's pipeline, the build of this
# commit): the GPU tests (quick matrix, huge ones excluded), verify --quick, and compute-sanitizer over verify of
# the pipelines forced on (racecheck one algorithm at a time, the full grid and 7 blocks; memcheck, synccheck)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 260 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --jobs 1 --max-size 20000"
/usr/bin/time -f "san racecheck full grid %e s" timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on > $OUT/w/san-racecheck-full.log 2>>$OUT/w/times.txt; echo "san racecheck full grid rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "san racecheck 7 blocks %e s" timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on,blocks=7 > $OUT/w/san-racecheck-7.log 2>>$OUT/w/times.txt; echo "san racecheck 7 blocks rc $?" >> $OUT/w/rc.txt
for t in memcheck synccheck; do /usr/bin/time -f "san $t %e s" timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $S verify --device cuda --quick --algo decoupled-lookback:pipelined=on --max-size 100000 > $OUT/w/san-$t.log 2>>$OUT/w/times.txt; echo "san $t rc $?" >> $OUT/w/rc.txt; done
gzip $OUT/w/tests.log
(cd $OUT && tar czf run2.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log
tail -n 3 $OUT/w/san-*.log
