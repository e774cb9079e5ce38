# stop 36, device run 3: bench/reduce_single_block.cu: reduce's one-block kernel and its variants beside CUB's,
# one launch between two events, then each kernel's own duration (ncu) at 2^10, 2^12 and 2^15
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
.device/rsb > $OUT/events.log 2>&1; echo "events rc $?" > $OUT/rc.txt
for lg in 10 12 15; do for k in single_kernel plain_kernel tiles_kernel DeviceReduce; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 10 --launch-count 6 --metrics gpu__time_duration.sum .device/rsb $lg >> $OUT/ncu-2p$lg.log 2>&1; echo "ncu $lg $k rc $?" >> $OUT/rc.txt
done; done
cat $OUT/rc.txt $OUT/events.log
for lg in 10 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z].*\(|gpu__time_duration" $OUT/ncu-2p$lg.log | paste - - | awk '{print $2, $NF}' | cut -c1-60; done
