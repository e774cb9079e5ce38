# stop 45, device run 6: the pointer check through cuPointerGetAttributes (one attribute), which answers memory
# CUDA does not know with success, where cuPointerGetAttribute (run 3) returned an error for it: the GPU tests;
# compute-sanitizer memcheck over the api tests (host pointers refused) with every API error reported; the
# check's cost (bench/host_path.cu, packed in .device/hp.tar.gz).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
tar xzf .device/hp.tar.gz -C .device
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "memcheck api %e s" timeout 200 compute-sanitizer --tool memcheck --report-api-errors all --error-exitcode 9 .device/sluice_tests --gtest_filter='api.*' > $OUT/w/san-memcheck-api.log 2>>$OUT/w/times.txt; echo "memcheck api rc $?" >> $OUT/w/rc.txt
timeout 60 .device/host_path > $OUT/w/host_path.log 2>&1; echo "host_path rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | grep -E "PASSED|FAILED" | head
grep -c "API error\|Program hit" $OUT/w/san-memcheck-api.log; grep -m5 "Program hit\|API error" $OUT/w/san-memcheck-api.log; tail -3 $OUT/w/san-memcheck-api.log
grep -h "check_device\|Attribute\|reduce_async\|DeviceReduce\|sluice / cub" $OUT/w/host_path.log
