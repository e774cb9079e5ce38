# stop 41, device run 3: L2 evict_first policies on the bulk copies (in, out, both): bench/bulk_copy_ceiling.cu l2
# (the bulk copy alone), bench/scan_wide.cu l2 (the pipelined scan, every output checked), bench/pipe_trace.cu l2
# (the pipelined compact by predicate u32 / u64 and with flags; every element and count checked)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
timeout 120 .device/bulk_copy_ceiling l2 > $OUT/bulk-l2.log 2>&1; echo "bulk_copy_ceiling rc $?" >> $OUT/bulk-l2.log
timeout 150 .device/scan_wide l2 > $OUT/scan-l2.log 2>&1; echo "scan_wide rc $?" >> $OUT/scan-l2.log
timeout 300 .device/pipe_trace l2 > $OUT/pipe-l2.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-l2.log
cat $OUT/gpu.txt $OUT/bulk-l2.log $OUT/scan-l2.log $OUT/pipe-l2.log
