# stop 41, device run 2: as run 1, the bulk copies in with an L2 evict_last policy and the second read evict_first
# in registers: bench/pipe_trace.cu reread (built without the trace): compact_if u32 at 7 / 8 vectors, lag 2 / 3,
# beside the default; u64 at 7 vectors; every element and count checked at n and n - 12345
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
timeout 540 .device/pipe_trace reread > $OUT/pipe-reread-l2.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-reread-l2.log
cat $OUT/gpu.txt $OUT/pipe-reread-l2.log
