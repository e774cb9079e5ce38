# stop 35, device run 9: bench/small_sizes (built against the CI clone's libsluice.a of b1c0e61) at 2^14, 2^16
# and 2^18: one call and back to back per primitive beside CUB, and the host's time per call by layer
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
/usr/bin/time -f "small_sizes %e s" timeout 200 .device/pt/small_sizes 14,16,18 > $OUT/small_sizes.log 2>>$OUT/times.txt; echo "small_sizes rc $?" >> $OUT/rc.txt
cat $OUT/rc.txt $OUT/times.txt $OUT/small_sizes.log
