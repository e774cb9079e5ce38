# stop 41, device run 14 (run 13's library; its new test used a predicate the library has no kernels for, and
# threw from a thread): the GPU tests at the quick sizes (the huge ones left out), compute-sanitizer memcheck over
# the two slot tests, and the synchronous compact_if, compact and partition_unordered_if at 2^10, 2^16 and 2^20
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 200 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_*' > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
for p in compact_if compact partition_unordered_if; do for n in 2^10 2^16 2^20; do
  timeout 30 $S bench --device cuda --suite production --primitive $p --n $n --out $OUT/w/x > $OUT/w/x.log 2>&1
  grep -E "^$p " $OUT/w/x.log >> $OUT/w/rows.txt
done; done
rm -rf $OUT/w/x $OUT/w/x.log
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED" | head; grep -h "ERROR SUMMARY" $OUT/w/san-memcheck.log; cut -c1-130 $OUT/w/rows.txt
