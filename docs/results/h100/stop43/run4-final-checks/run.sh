# stop 43, device run 4 (the wide look-backs of the pipelined scan and compact read 2 words a thread, the constant
# since run 3): the production suite at 2^28 for the scans, compact and compact_if (the synchronous forms, then
# the _async ones), the GPU tests at the quick sizes (the huge ones left out) and verify --device cuda --quick
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
for p in inclusive_scan exclusive_scan compact compact_if; do
  /usr/bin/time -f "production $p 2^28 %e s" timeout 60 $S bench --device cuda --suite production --n 2^28 --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-$p.log 2>>$OUT/w/times.txt; echo "bench $p rc $?" >> $OUT/w/rc.txt
  /usr/bin/time -f "production async $p 2^28 %e s" timeout 60 $S bench --device cuda --suite production --async --n 2^28 --primitive $p --out $OUT/w/prod-async-$p > $OUT/w/bench-async-$p.log 2>>$OUT/w/times.txt; echo "bench async $p rc $?" >> $OUT/w/rc.txt
done
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 260 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
(cd $OUT && tar czf run4.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log
grep -h "of copy" $OUT/w/bench-*.log | cut -c12-150
