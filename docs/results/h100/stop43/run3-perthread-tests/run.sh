# stop 43, device run 3 (HEAD with the pipelines' cur/done as bulk_rounds::taken/stored and the WidePerThread
# parameter): pipe_trace perthread and scan_wide perthread (the wide look-back reading 2 counts or aggregates a
# thread, grids to 512 blocks, against the default's 4, in turn; u32/u64 by predicate, flags, partition_if; the
# scans at 2^28), then the GPU tests at the quick sizes (the huge ones left out; run 2's ran beside racecheck and
# out of time) and verify --device cuda --quick
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
gunzip -f .device/pipe_trace.gz .device/scan_wide.gz
S=.device/sluice
/usr/bin/time -f "perthread %e s" timeout 200 .device/pipe_trace perthread > $OUT/w/perthread.log 2>>$OUT/w/times.txt; echo "perthread rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "scan_wide perthread %e s" timeout 90 .device/scan_wide perthread > $OUT/w/scan-perthread.log 2>>$OUT/w/times.txt; echo "scan_wide rc $?" >> $OUT/w/rc.txt
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 260 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/perthread.log $OUT/w/scan-perthread.log; zcat $OUT/w/tests.log.gz | tail -3; tail -1 $OUT/w/verify-quick.log
