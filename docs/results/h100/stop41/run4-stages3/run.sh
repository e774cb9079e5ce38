# stop 41, device run 4: a third buffer at 7 vectors (u32) and 6 (u64) by predicate: bench/pipe_trace.cu stages3
# (built without the trace; every element and count checked at n and n - 12345)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
timeout 300 .device/pipe_trace stages3 > $OUT/pipe-stages3.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-stages3.log
cat $OUT/gpu.txt $OUT/pipe-stages3.log
