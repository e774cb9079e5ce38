# stop 53, device run 1: this stop's library (.device/sluice: the compactions' and partitions' synchronous count
# stored by the look-back grid's last block to finish and read as it lands; the pipelines' variables located by
# dynamic_shared_after) and the checks stop 52 left unrun: the new test and the mended watched-reduce test first,
# then the GPU tests (quick matrix, huge left out), verify --quick, the pipelines forced on, three sanitizers over
# the pipelines, and memcheck / racecheck / synccheck over the new test's synchronous calls.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
S=.device/sluice T=.device/sluice_tests
t tests-sync 120 $T --gtest_filter='gpu.synchronous*:gpu.partitions_on_both*:gpu.compactions_of_dense*'; keep
tail -3 $W/tests-sync.log
pipeline_checks $S $T > $W/checks.txt; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-sync-counts" 100 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='gpu.synchronous_counts_land*'
done
keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
cat $W/checks.txt
for f in $W/san-*sync-counts.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED' $f | tail -3 | tr '\n' ' ')"; done
