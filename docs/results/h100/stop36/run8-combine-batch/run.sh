# stop 36, device run 8 (the command ran with the prefix that unpacks .gl and sets LD_LIBRARY_PATH; its first try without it
# found no libraries): reduce's last-block combination of the partials loaded 4 at a time (body_kernel under
# __launch_bounds__(256, 8)) against the combination one value at a time: bench/small_sizes compiled with either
# header (ss_new, ss_old), vectorized::run one call at a time and back to back beside CUB, alternating twice
cd "$(dirname "$0")/../../../../.."
tar xzf .device/ss.tgz -C .device
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
for r in 1 2; do for v in old new; do
  timeout 100 .device/ss_$v 16,20,22,23,24,25,26 > $OUT/ss-$v-$r.log 2>&1; echo "ss_$v run $r rc $?" >> $OUT/rc.txt
done; done
cat $OUT/rc.txt
for r in 1 2; do for v in old new; do echo "== $v $r"; grep -E "vectorized::run|cub reduce|failures" $OUT/ss-$v-$r.log; done; done
