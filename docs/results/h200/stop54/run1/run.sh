# stop 54, device run 1: the single pass as one thread block cluster for 2 to 16 tiles (compact, partition,
# partition_unordered, the scans) and the anchored look-back of the float scans (new: .device/sluice) in turn
# with 05f9559's build (old: .device/old/sluice), synchronous and _async; the select and scan kernels' registers
# and stack in both; then the checks: the GPU tests (quick matrix, huge left out), verify --quick, verify of
# decoupled-lookback on the full matrix, and memcheck / racecheck / synccheck over verify of decoupled-lookback at
# the cluster's sizes and over the new tests.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54.tar.xz -C .device  # new: sluice, sluice_tests; old: old/sluice
S=.device/sluice T=.device/sluice_tests
P="inclusive_scan exclusive_scan compact compact_if partition partition_if partition_unordered_if"
ab_n 4 "$P" "65536" old=.device/old/sluice new=$S --; keep
ab_n 2 "$P" "16384 32768 131072 262144" old=.device/old/sluice new=$S --; keep
ab_n 2 "inclusive_scan exclusive_scan" "1048576 4194304 8388608" old=.device/old/sluice new=$S --; keep
mkdir -p $W/async && mv $W/ab $W/sync
ab_n 2 "$P" "65536 131072" old=.device/old/sluice new=$S -- --async; keep
mv $W/ab $W/async/ab && mv $W/sync $W/ab
for b in old=.device/old/sluice new=$S; do
  cuobjdump -res-usage ${b#*=} 2>/dev/null | grep -A1 "select_kernel\|scan_kernel" | grep -v pipelined | paste - - - | awk '{print $2, $3, $4}' > $W/res-${b%%=*}.txt
done
SLUICE_TEST_QUICK=1 t tests 300 $T --gtest_brief=1 --gtest_filter='-gpu.huge*'; gzip -f $W/tests.log; keep
t verify-quick 60 $S verify --device cuda --quick
t verify-lookback 150 $S verify --device cuda --algo decoupled-lookback --algo decoupled-lookback:cluster=off; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-verify" 120 compute-sanitizer --tool $tool --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 \
    --max-size 140000 --algo decoupled-lookback
  SLUICE_TEST_SANITIZE=1 t "san-$tool-tests" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T \
    --gtest_filter='gpu.small_inputs_run_as_one_cluster*:gpu.float_scans_below*:gpu.synchronous_counts_land*'
  keep
done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0" | grep -v "^ab-"
diff $W/res-old.txt $W/res-new.txt | head -30; wc -l $W/res-*.txt
zcat $W/tests.log.gz | tail -4
for f in $W/verify-*.log; do echo "$(basename $f): $(tail -1 $f)"; done
for f in $W/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED|passed, ' $f | tail -3 | tr '\n' ' ')"; done
