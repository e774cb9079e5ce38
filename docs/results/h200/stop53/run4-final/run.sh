# stop 53, device run 4: the final build (the stable partition's last block stores the total every tile knows,
# without run 3's look at the last tile's state): the partitions in turn with 52de7bd's library (old) four times
# at four sizes; the whole production suite up to 2^24, synchronous, this build alone (--max-size); then the checks:
# the synchronous tests, the GPU tests (quick matrix, huge left out), verify --quick, the pipelines forced on,
# three sanitizers over the pipelines and over the new test's synchronous calls.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
S=.device/sluice T=.device/sluice_tests
ab_n 4 "partition partition_if" "1024 65536 1048576 4194304" old=.device/old/sluice new=$S --; keep
t suite 200 $S bench --device cuda --suite production --max-size 2^24 --out $W/suite; rm -f $W/suite/*.gp; keep
t tests-sync 120 $T --gtest_filter='gpu.synchronous*:gpu.partitions_on_both*:gpu.compactions_of_dense*'; keep
pipeline_checks $S $T > $W/checks.txt; keep
for tool in memcheck racecheck synccheck; do
  t "san-$tool-sync-counts" 150 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='gpu.synchronous_counts_land*'
done
keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0" | grep -v "^ab-"
tail -3 $W/tests-sync.log
cat $W/checks.txt
for f in $W/san-*sync-counts.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED' $f | tail -3 | tr '\n' ' ')"; done
