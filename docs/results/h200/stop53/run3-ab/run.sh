# stop 53, device run 3: the count's tail made cheaper (the last block's store plain after a GPU-scope fence, where
# run 2's build stored it with a system-scope release; one tile: no counter) in turn with 52de7bd's library (old),
# four times, at five sizes (each its own call, alike for both builds); then the new test and the checks of the
# synchronous counts under the three sanitizers (the watch's limit lifted in the test).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
ab_n 4 "compact compact_if partition partition_if" "1024 4096 65536 1048576 4194304" old=.device/old/sluice new=.device/sluice --; keep
T=.device/sluice_tests
t tests-sync 120 $T --gtest_filter='gpu.synchronous*:gpu.partitions_on_both*:gpu.compactions_of_dense*'; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-sync-counts" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='gpu.synchronous_counts_land*'
done
keep
cat $OUT/gpu.txt $W/rc.txt | grep -v " rc 0"
tail -3 $W/tests-sync.log
for f in $W/san-*sync-counts.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED' $f | tail -3 | tr '\n' ' ')"; done
