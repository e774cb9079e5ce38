# stop 38, device run 1: reduce's dynamic kernel held to 8 blocks an SM (chunks of 16, 32, 64 KiB) beside the
# library's kernels and CUB from 2^20 to 2^28 (reduce_tuning occupancy, kernels alone), twice; and the
# one-block kernel with a commuting fold (reduce_single_block, events, then ncu durations at 2^10 and 2^12)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
for r in 1 2; do
  timeout 200 .device/reduce_tuning occupancy > $OUT/occupancy-$r.log 2>&1; echo "occupancy $r rc $?" >> $OUT/rc.txt
done
.device/rsb > $OUT/events.log 2>&1; echo "events rc $?" >> $OUT/rc.txt
for lg in 10 12; do
  for k in commuting_kernel tiles_kernel DeviceReduce single_kernel; do
    timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 10 --launch-count 5 --metrics gpu__time_duration.sum .device/rsb $lg >> $OUT/ncu-2p$lg.log 2>&1; echo "ncu $lg $k rc $?" >> $OUT/rc.txt
  done
done
cat $OUT/rc.txt $OUT/events.log
for lg in 10 12; do echo "== 2^$lg"; grep -E "^  [a-zA-Z].*\(|gpu__time_duration" $OUT/ncu-2p$lg.log | paste - - | awk '{print $2, $NF}' | cut -c1-40 | paste -s -d' '; done
for r in 1 2; do grep -E "x cub|FAIL|failures" $OUT/occupancy-$r.log | awk '{printf "%s %s ", $1, $2; for (i=3;i<=NF;i++) printf "%s ", $i; print ""}' | sed -E 's/ +/ /g' | cut -c1-130; done
