# stop 45, device run 2 (run 1's build): the whole synchronous production suite, timed (stop 44's run 3: 279 s,
# most of it building inputs; the counter-based generators fill them on every host thread since), then
# compact_if _async at every power of two (stop 44's run 4 ran past 230 s in its 64-bit rows)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production %e s" timeout 360 $S bench --device cuda --suite production --out $OUT/w/prod > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production async compact_if %e s" timeout 200 $S bench --device cuda --suite production --async --primitive compact_if --out $OUT/w/prod-async-compact_if > $OUT/w/bench-async-compact_if.log 2>>$OUT/w/times.txt; echo "bench async compact_if rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run2.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
grep -h "n=268435456 \|n=134217728 " $OUT/w/bench-*.log | grep -v "cudaMemcpy" | cut -c12-150 | head -70
