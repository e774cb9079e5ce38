# stop 40, device run 1: the pipelined compact with the lagged tiles' ranks packed (packed_ranks): bench/pipe_trace.cu
# packed (built without the trace): compact_if u32 at 6 (default) / 7 / 8 vectors, flags at 5 / 6 / 7, the reversed
# partition pass at 6 / 7, u64 at 6 / 7; every element and count checked at n and n - 12345
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
timeout 500 .device/pipe_trace packed > $OUT/pipe-packed.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-packed.log
cat $OUT/gpu.txt $OUT/pipe-packed.log
