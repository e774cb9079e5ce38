# stop 52, device run 4 (an H200): bench/sync_poll.cu (built here: nvcc -std=c++20 -O3 -arch=sm_90
# bench/sync_poll.cu -o .device/sync_poll), twice, 201 rounds: a synchronous call's wait by cudaStreamSynchronize
# against the host watching its mapped slot.
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > "$OUT/gpu.txt"
for i in 1 2; do .device/sync_poll 201 | tee "$OUT/sync_poll-$i.csv"; done
