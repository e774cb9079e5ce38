# stop 38, device run 3: what makes reduce's one-block kernel slower than a bare commuting kernel at 2^10-2^15:
# the warp's sum by redux or by the ordered shuffle tree, maybe<u32> parts, the fold in order or commuting,
# the tail code compiled in or out (bench/reduce_single_block.cu); events twice, then ncu's per-kernel means
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
for r in 1 2; do .device/rsb 10,12,15 > $OUT/events-$r.log 2>&1; echo "events $r rc $?" >> $OUT/rc.txt; done
for lg in 10 12 15; do
  timeout 120 ncu --clock-control none --cache-control none --print-summary per-kernel --metrics gpu__time_duration.sum .device/rsb $lg > $OUT/ncu-2p$lg.log 2>&1; echo "ncu $lg rc $?" >> $OUT/rc.txt
done
cat $OUT/rc.txt; paste $OUT/events-1.log $OUT/events-2.log | awk -F'\t' '{print $1 "  |" substr($2, 20)}'
for lg in 10 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $OUT/ncu-2p$lg.log | sed -E 's/\(.*//; s/ +/ /g' | paste - - | cut -c1-200; done
