# stop 36, device run 6: bench/reduce_single_block.cu with the library's final single_kernel (lib; lib-tail: a tail of 100) beside CUB's,
# one launch between two events, then each kernel's own duration (ncu) at 2^10, 2^12 and 2^15
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
.device/rsb > $OUT/events.log 2>&1; echo "events rc $?" > $OUT/rc.txt
# single_kernel's launches: lib 0-56, lib-tail 57-113 (each variant's check, then 5 + 51 timed)
for lg in 10 12 15; do
  for k in tiles_kernel DeviceReduce; do
    timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 10 --launch-count 5 --metrics gpu__time_duration.sum .device/rsb $lg >> $OUT/ncu-2p$lg.log 2>&1; echo "ncu $lg $k rc $?" >> $OUT/rc.txt
  done
  for skip in 10 67; do
    timeout 60 ncu --clock-control none --cache-control none -k regex:single_kernel --launch-skip $skip --launch-count 5 --metrics gpu__time_duration.sum .device/rsb $lg >> $OUT/ncu-2p$lg.log 2>&1; echo "ncu $lg single_kernel from launch $skip rc $?" >> $OUT/rc.txt
  done
done
cat $OUT/rc.txt $OUT/events.log
for lg in 10 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z].*\(|gpu__time_duration" $OUT/ncu-2p$lg.log | paste - - | awk '{print $2, $NF}' | cut -c1-40 | paste -s -d' '; done
