# stop 43, device run 10 (run 4's build, commit 761df71: the look-backs read 2 words a thread): the production suite
# in the synchronous forms for the scans alone (the session's device time left no room for the whole suite), every
# power of two, in turn with CUB (issue 8's scan figures)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
for p in inclusive_scan exclusive_scan; do
  /usr/bin/time -f "production $p %e s" timeout 110 $S bench --device cuda --suite production --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-production-cuda-$p.log 2>>$OUT/w/times.txt; echo "bench $p rc $?" >> $OUT/w/rc.txt
done
(cd $OUT && tar czf run10.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
sed -n '/^primitive /,$p' $OUT/w/bench-production-cuda-*.log | cut -c1-150 | head -80
