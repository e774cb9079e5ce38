# stop 35, device run 8: the flagged compact's pipeline shapes at 10 / 50 / 90% kept (bench/pipe_trace.cu flags,
# built without the trace: kernels alone, 2^28 u32, every element and count checked first)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
/usr/bin/time -f "flags %e s" timeout 400 .device/pt/pipe_trace flags > $OUT/pipe_trace-flags.log 2>>$OUT/times.txt; echo "flags rc $?" >> $OUT/rc.txt
cat $OUT/rc.txt $OUT/times.txt $OUT/pipe_trace-flags.log
