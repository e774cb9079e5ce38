# stop 44, device run 4 (run 2's build): compact and compact_if in the _async forms, every power of two, in turn
# with CUB (issue 8's figures; run 3 gave them 100 s each, too little)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
for p in compact compact_if; do
  /usr/bin/time -f "production async $p %e s" timeout 230 $S bench --device cuda --suite production --async --primitive $p --out $OUT/w/prod-async-$p > $OUT/w/bench-async-$p.log 2>>$OUT/w/times.txt; echo "bench async $p rc $?" >> $OUT/w/rc.txt
done
(cd $OUT && tar czf run4.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
grep -h "n=268435456 \|n=134217728 " $OUT/w/bench-*.log | grep -v "cudaMemcpy" | cut -c12-150 | head -60
