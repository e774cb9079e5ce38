# stop 54, device run 3: the final build (new: .device/sluice; the anchored look-back with a mask of the positions
# awaited, one anchor every 128 tiles of 4-byte elements and 64 of 8-byte ones; the cluster path spread) in turn with
# 05f9559's (old): the scans at 2^18 .. 2^23, four times, and the seven forms at 2^16, synchronous and _async, three
# times; the whole production suite up to 2^24, synchronous and _async, twice each; the scan and select kernels'
# registers and stack in both builds; then the checks: the GPU tests (quick matrix, huge left out), verify --quick,
# verify of decoupled-lookback (with cluster=off too) on the full matrix, memcheck / racecheck / synccheck over verify
# of decoupled-lookback at the cluster's sizes and over the new tests (SLUICE_TEST_SANITIZE=1).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54c.tar.xz -C .device  # sluice, sluice_tests, old/sluice, lib
S=.device/sluice T=.device/sluice_tests O=.device/old/sluice
ab_n 4 "inclusive_scan exclusive_scan" "262144 1048576 4194304 8388608" old=$O new=$S --; mkdir -p $W/scan && mv $W/ab $W/scan/ab; keep
P="inclusive_scan exclusive_scan compact compact_if partition partition_if partition_unordered_if"
ab_n 3 "$P" "65536" old=$O new=$S --; mkdir -p $W/sync && mv $W/ab $W/sync/ab; keep
ab_n 3 "$P" "65536" old=$O new=$S -- --async; mkdir -p $W/async && mv $W/ab $W/async/ab; keep
for r in 1 2; do
  t suite-$r 200 $S bench --device cuda --suite production --max-size 2^24 --out $W/suite-$r
  t suite-async-$r 200 $S bench --device cuda --suite production --max-size 2^24 --async --out $W/suite-async-$r
  rm -f $W/suite*/*.gp $W/suite*/*.png
done; keep
for b in old=$O new=$S; do
  cuobjdump -res-usage ${b#*=} 2>/dev/null | awk '/Function/ {f = $2} /REG:/ {print f, $2, $3}' | grep -E "select_kernel|decoupled_lookback11scan_kernel" > $W/res-${b%%=*}.txt
done
SLUICE_TEST_QUICK=1 t tests 300 $T --gtest_brief=1 --gtest_filter='-gpu.huge*'; gzip -f $W/tests.log; keep
t verify-quick 60 $S verify --device cuda --quick
t verify-lookback 150 $S verify --device cuda --algo decoupled-lookback --algo decoupled-lookback:cluster=off; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-verify" 120 compute-sanitizer --tool $tool --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 \
    --max-size 140000 --algo decoupled-lookback --algo decoupled-lookback:cluster=off
  SLUICE_TEST_SANITIZE=1 t "san-$tool-tests" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T \
    --gtest_filter='gpu.small_inputs_run_as_one_cluster*:gpu.float_scans_below*:gpu.synchronous_counts_land*'
  keep
done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0" | grep -v "^ab-"
zcat $W/tests.log.gz | tail -4
for f in $W/verify-*.log; do echo "$(basename $f): $(tail -1 $f)"; done
for f in $W/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED|passed, ' $f | tail -3 | tr '\n' ' ')"; done
