# stop 44, device run 3 (run 2's build: two-ended staging and the cursor in the compact's pipeline): the whole
# production suite in the synchronous forms, every case and power of two, in turn with CUB (issue 8's figures),
# then compact and compact_if in the _async forms likewise
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production %e s" timeout 360 $S bench --device cuda --suite production --out $OUT/w/prod > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
for p in compact compact_if; do
  /usr/bin/time -f "production async $p %e s" timeout 100 $S bench --device cuda --suite production --async --primitive $p --out $OUT/w/prod-async-$p > $OUT/w/bench-async-$p.log 2>>$OUT/w/times.txt; echo "bench async $p rc $?" >> $OUT/w/rc.txt
done
(cd $OUT && tar czf run3.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
grep -h "n=268435456 " $OUT/w/bench-*.log | grep -v "^.*copy .*cudaMemcpy" | cut -c12-150 | head -70
