# stop 52, device run 5 (an H200): the synchronous reduce reading its result as soon as it lands in its mapped slot
# (cuda_backend::through_watched_host_slot; .device/sluice) in turn with run 2's library (.device/r2/sluice, where
# the host waits for the stream), synchronous, every power of two, twice; then this build's reduce checks: the GPU
# tests that take reduce (quick matrix), verify of the vectorized reduce's forms, memcheck over them.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r5.tar.xz -C .device
S=.device/sluice
ab 2 reduce old=.device/r2/sluice new=$S --; keep
SLUICE_TEST_QUICK=1 t tests-reduce 150 .device/sluice_tests --gtest_brief=1 \
  --gtest_filter='gpu.*reduce*:gpu.async_forms*:gpu.first_calls*:gpu.small_calls*:gpu.kept_lookback*:cuda/policies.*vectorized*'
t verify-reduce 90 $S verify --device cuda --algo vectorized --algo vectorized:dynamic=on --algo vectorized:dynamic=off
t san-memcheck-reduce 60 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick \
  --max-size 70000 --algo vectorized --algo vectorized:dynamic=on
keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
tail -3 $W/tests-reduce.log
for f in $W/verify-reduce.log $W/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
