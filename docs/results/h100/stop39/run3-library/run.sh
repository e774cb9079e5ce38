# stop 39, device run 3 (H100 80GB HBM3): the library's new end (partials as packed words counted relaxed,
# the last block folding them alone, head and tail folded by blocks 0 and last after their tiles) in
# bench/reduce_tail.cu's library rows (dynamic auto, off, on; n - 100; in + 1, n - 2), beside the study rows;
# compute-sanitizer memcheck over every row once
cd "$(dirname "$0")/../../../../.."
cd .device && nvidia-smi --query-gpu=name --format=csv,noheader && ./reduce_tail 2>&1 | tee $OUT/tail.log; compute-sanitizer --tool memcheck ./reduce_tail once 2>&1 | tail -3
