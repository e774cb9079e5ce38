# stop 45, device run 1 (prepared in stop 44; build: main, scripts/stage_device.sh; carry .device and .gl):
# - the GPU tests (quick matrix, huge ones excluded), with stop 44's gpu.compactions_of_dense_and_sparse_tiles_through_two_blocks,
#   and verify --quick, on the counter-based generators' data (stop 44, not yet run on the GPU);
# - racecheck where stop 44's runs could not reach: the compact pipeline's two-ended staging over many rounds a
#   block (that test sanitized, and verify of the pipelines on 2 blocks to 100000 elements, one algorithm at a time);
# - the slowest GPU tests (per-test times: the suite takes 185 s of each session's device time).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 260 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
SLUICE_TEST_SANITIZE=1 /usr/bin/time -f "san racecheck dense-sparse test %e s" timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.compactions_of_dense_and_sparse*' > $OUT/w/san-racecheck-test.log 2>>$OUT/w/times.txt; echo "san racecheck test rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "san racecheck 2 blocks %e s" timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --max-size 100000 --algo decoupled-lookback:pipelined=on,blocks=2 > $OUT/w/san-racecheck-2.log 2>>$OUT/w/times.txt; echo "san racecheck 2 blocks rc $?" >> $OUT/w/rc.txt
grep -E "^\[ +OK \]" $OUT/w/tests.log | sort -t"(" -k2 -n -r | head -15 > $OUT/w/tests-slowest.txt
gzip $OUT/w/tests.log
(cd $OUT && tar czf run1.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/tests-slowest.txt; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log; tail -n 3 $OUT/w/san-*.log
