# stop 41, device run 13: the synchronous compact, compact_if and partition_unordered of the default take their
# count straight into a mapped host slot: the GPU tests at the quick sizes (the huge ones left out), verify
# --quick on the cuda device, compute-sanitizer memcheck over the two slot tests, and the synchronous production
# suite's compact, compact_if and partition_unordered_if rows at every power of two
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
(SLUICE_TEST_QUICK=1 timeout 300 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt)
timeout 90 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>&1; echo "verify quick rc $?" >> $OUT/w/rc.txt
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_*' > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
for p in compact compact_if partition_unordered_if; do
  timeout 100 $S bench --device cuda --suite production --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-$p.log 2>&1; echo "bench $p rc $?" >> $OUT/w/rc.txt
done
gzip $OUT/w/tests.log
(cd $OUT && tar czf run13.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED" | head; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY" $OUT/w/san-memcheck.log
grep -hE "^(compact|compact_if|partition_unordered_if) +u32" $OUT/w/bench-*.log | cut -c1-130
