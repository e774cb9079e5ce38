# stop 40, device run 3: compact_if u32 with a lag of three rounds, and with the elements read into registers only
# after C (late_load: the registers hold lag tiles, not lag + 1), beside the default (6 vectors, lag 2) and 7 vectors
# at lag 2: bench/pipe_trace.cu late (built without the trace); every element and count checked at n and n - 12345
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
timeout 500 .device/pipe_trace late > $OUT/pipe-late.log 2>&1; echo "pipe_trace rc $?" >> $OUT/pipe-late.log
cat $OUT/gpu.txt $OUT/pipe-late.log
