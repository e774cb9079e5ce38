# stop 39, device run 1 (the device tool handed out an H200 for this one: compare within the run only):
# bench/reduce_tail.cu as first written (rows library, full, lean-last, no-fold, no-count and the same on
# CUB's grid, cub), its per-block %globaltimer trace at 2^24, and ncu's kernel durations of each row at 2^22
# and 2^24 ("once")
cd "$(dirname "$0")/../../../../.."
cd .device && nvidia-smi --query-gpu=name --format=csv,noheader && ./reduce_tail 2>&1 | tee $OUT/tail.log && ./reduce_tail trace 2>&1 | tee $OUT/trace.log && ncu --print-summary per-kernel --metrics gpu__time_duration.sum ./reduce_tail once 2>&1 | grep -v "^==PROF==" > $OUT/ncu.log
