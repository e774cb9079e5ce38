# stop 34, device run 8: the README's main job with the stop's final kernels: `sluice bench` with no arguments
# (the quick suite on the GPU: verify every algorithm, then time each at 2^26 beside CUB and the copy)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
cd $OUT && /usr/bin/time -f "bench %e s" timeout 300 $OLDPWD/.device/sluice bench > bench-quick.log 2>&1; echo "bench rc $?" >> rc.txt
ls sluice-results > files.txt; rm -rf sluice-results
cat rc.txt; tail -4 bench-quick.log; grep -c "" files.txt
