# stop 43, device run 2 (HEAD 6d60bed: copy_to_host through through_host_slot, not yet run on the GPU; and stop 42's
# refactor of both pipelines, f99d691): the GPU tests at the quick sizes (the huge ones left out), verify --quick,
# memcheck over the slot tests, and compute-sanitizer racecheck over the pipelines forced on, on the full grid, to
# 20000 elements (stop 42's runs 6-7 ran out of time: on 7 blocks it is too slow), beside the tests
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on"
(/usr/bin/time -f "san racecheck %e s" timeout 280 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V > $OUT/w/san-racecheck.log 2>>$OUT/w/times.txt; echo "san racecheck rc $?" >> $OUT/w/rc.txt) &
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 250 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_*' > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
wait
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log; tail -3 $OUT/w/san-racecheck.log
