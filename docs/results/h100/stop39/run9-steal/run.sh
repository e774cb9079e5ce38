# stop 39, device run 9: bench/reduce_tail.cu "steal": equal shares of the first 60, 75 or 85 % of the warp
# tiles, the rest in 16 or 32 KiB chunks drawn by the blocks as they finish (steal_copy, with the new end),
# beside the library (dynamic auto, off, on) and CUB, 2^24 to 2^27
cd "$(dirname "$0")/../../../../.."
cd .device && nvidia-smi --query-gpu=name --format=csv,noheader && ./reduce_tail steal 2>&1 | tee $OUT/steal.log
