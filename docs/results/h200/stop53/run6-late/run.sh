# stop 53, device run 6: the resident partition stores its kept run before it waits for the total (late: .device/sluice)
# in turn with run 4's build (mid: .device/mid/sluice, the count read as it lands) and 52de7bd's (old), four times at
# four sizes where the grid is resident, synchronous and _async; the select kernels' registers and stack in both
# builds (cuobjdump); then the checks: the GPU tests (quick matrix, huge left out), verify --quick, the pipelines
# forced on, the sanitizers over the pipelines, over the new test and over verify of decoupled-lookback.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
S=.device/sluice T=.device/sluice_tests
ab_n 4 "partition partition_if" "65536 262144 1048576 4194304" old=.device/old/sluice mid=.device/mid/sluice new=$S --; keep
mkdir -p $W/async && mv $W/ab $W/sync
ab_n 2 "partition partition_if" "65536 1048576 4194304" old=.device/old/sluice mid=.device/mid/sluice new=$S -- --async; keep
mv $W/ab $W/async/ab && mv $W/sync $W/ab
for b in mid=.device/mid/sluice new=$S; do
  cuobjdump -res-usage ${b#*=} 2>/dev/null | grep -A1 "select_kernel" | paste - - - | awk '{print $2, $3, $4}' > $W/res-${b%%=*}.txt
done
for b in old=.device/old/sluice new=$S; do  # the pipelines' variables by dynamic_shared_after (this stop) or by a cast
  cuobjdump -res-usage ${b#*=} 2>/dev/null | grep -A1 "pipelined_compact_kernel\|pipeline_kernel\|pipelined_scan" | paste - - - | awk '{print $2, $3, $4, $5, $6}' > $W/pipe-${b%%=*}.txt
done
for f in $(grep -o "^_Z[^:]*pipelined_scan_kernel[^:]*" $W/pipe-old.txt | head -2) $(grep -o "^_Z[^:]*pipelined_compact_kernel[^:]*" $W/pipe-old.txt | head -2); do
  for b in old=.device/old/sluice new=$S; do cuobjdump -sass -fun "$f" ${b#*=} 2>&1 | grep -E "^ +/\*[0-9a-f]{4}\*/" > $W/sass-${b%%=*}.txt; done
  echo "$(wc -l < $W/sass-old.txt) / $(wc -l < $W/sass-new.txt) instructions, $(diff $W/sass-old.txt $W/sass-new.txt | grep -c '^[<>]') lines differ: ${f:0:80}" >> $W/sass-diff.txt
done
rm -f $W/sass-old.txt $W/sass-new.txt
t tests-sync 120 $T --gtest_filter='gpu.synchronous*:gpu.partitions_on_both*:gpu.compactions_of_dense*'; keep
pipeline_checks $S $T > $W/checks.txt; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-sync-counts" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='gpu.synchronous_counts_land*:gpu.partitions_on_both*'
  t "san-$tool-lookback" 100 compute-sanitizer --tool $tool --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 \
    --max-size 70000 --algo decoupled-lookback
done
keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0" | grep -v "^ab-"
diff $W/res-mid.txt $W/res-new.txt | head -40; wc -l $W/res-*.txt
diff $W/pipe-old.txt $W/pipe-new.txt > $W/pipe-diff.txt; cat $W/sass-diff.txt; echo "pipelines' resources, old against new: $(wc -l < $W/pipe-old.txt) kernels, $(grep -c '^[<>]' $W/pipe-diff.txt) lines differ"
tail -3 $W/tests-sync.log
cat $W/checks.txt
for f in $W/san-*sync-counts.log $W/san-*lookback.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED|passed, ' $f | tail -3 | tr '\n' ' ')"; done
