# stop 40, device run 2: compact_if u32 with a lag of one round (two tiles in registers, so 7 or 8 vectors fit),
# beside the default (6 vectors, lag 2) and run 1's best (7 vectors, lag 2): bench/pipe_trace.cu lag1 (built
# without the trace); every element and count checked at n and n - 12345
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
timeout 500 .device/pipe_trace lag1 > $OUT/pipe-lag1.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-lag1.log
cat $OUT/gpu.txt $OUT/pipe-lag1.log
