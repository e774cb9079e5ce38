# stop 41, device run 1: the pipelined compact with C's elements read again from the L2 (reread) instead of held
# in registers: bench/pipe_trace.cu reread (built without the trace): compact_if u32 at 7 / 8 vectors, lag 2 / 3,
# 2 / 3 buffers, beside the default; u64 at 6 / 7 / 8 vectors; every element and count checked at n and n - 12345
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
timeout 540 .device/pipe_trace reread > $OUT/pipe-reread.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-reread.log
cat $OUT/gpu.txt $OUT/pipe-reread.log
