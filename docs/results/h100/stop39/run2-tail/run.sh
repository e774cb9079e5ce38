# stop 39, device run 2 (H100 80GB HBM3): bench/reduce_tail.cu with the last block's variants added
# (lean-nofence, lean-relaxed*, lean-warp), every row at 2^21-2^27, and the trace at 2^24
cd "$(dirname "$0")/../../../../.."
cd .device && nvidia-smi --query-gpu=name --format=csv,noheader && ./reduce_tail 2>&1 | tee $OUT/tail.log; ./reduce_tail trace 2>&1 | tee $OUT/trace.log
