# stop 32, device run 7: release + wide + lag 2 variants of the pipelined compact, partition pass, u64 (bench/pipe_trace.cu)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv > $OUT/gpu.txt
stdbuf -oL timeout 500 .device/pt/pipe_trace > $OUT/pipe-trace.log 2>&1; echo "trace rc $?" >> $OUT/rc.txt
grep -v "    " $OUT/pipe-trace.log
