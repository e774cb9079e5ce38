# stop 54, device run 5: the final build (.device/sluice: the flagged stable partition back on its resident grid, every
# other form of 2 to 16 tiles one cluster): the whole production suite up to 2^24, synchronous and _async, once each;
# the GPU tests (quick matrix, huge left out), verify --quick, verify of decoupled-lookback (with cluster=off too) on
# the full matrix, memcheck / racecheck / synccheck over verify of decoupled-lookback at the cluster's sizes and over
# the new tests (SLUICE_TEST_SANITIZE=1).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54d.tar.xz -C .device  # sluice, sluice_tests, lib
S=.device/sluice T=.device/sluice_tests
t suite 200 $S bench --device cuda --suite production --max-size 2^24 --out $W/suite
t suite-async 200 $S bench --device cuda --suite production --max-size 2^24 --async --out $W/suite-async
rm -f $W/suite*/*.gp $W/suite*/*.png; keep
SLUICE_TEST_QUICK=1 t tests 300 $T --gtest_brief=1 --gtest_filter='-gpu.huge*'; gzip -f $W/tests.log; keep
t verify-quick 60 $S verify --device cuda --quick
t verify-lookback 150 $S verify --device cuda --algo decoupled-lookback --algo decoupled-lookback:cluster=off; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-verify" 120 compute-sanitizer --tool $tool --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 \
    --max-size 140000 --algo decoupled-lookback --algo decoupled-lookback:cluster=off
  SLUICE_TEST_SANITIZE=1 t "san-$tool-tests" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T \
    --gtest_filter='gpu.small_inputs_run_as_one_cluster*:gpu.float_scans_below*:gpu.synchronous_counts_land*:gpu.partitions_on_both*'
  keep
done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
zcat $W/tests.log.gz | tail -4
for f in $W/verify-*.log; do echo "$(basename $f): $(tail -1 $f)"; done
for f in $W/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED|passed, ' $f | tail -3 | tr '\n' ' ')"; done
