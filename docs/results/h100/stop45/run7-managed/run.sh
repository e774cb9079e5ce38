# stop 45, device run 7: the new test gpu.managed_memory_is_taken_and_pinned_host_memory_refused and the
# host-pointer refusal, natively and under compute-sanitizer memcheck with every API error reported (run 6's
# memcheck ran the api tests only, which pass no host pointer to a cuda call).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
F='gpu.managed_memory*:gpu.host_pointer*:gpu.synchronous_*'
.device/sluice_tests --gtest_filter="$F" > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt
timeout 200 compute-sanitizer --tool memcheck --report-api-errors all --error-exitcode 9 .device/sluice_tests --gtest_filter="$F" > $OUT/w/san-memcheck.log 2>&1; echo "memcheck rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt; grep -E "OK|FAILED|PASSED" $OUT/w/tests.log; grep -c "Program hit" $OUT/w/san-memcheck.log; grep -m3 "Program hit" $OUT/w/san-memcheck.log; tail -2 $OUT/w/san-memcheck.log
