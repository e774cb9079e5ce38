# stop 41, device run 7 (the build of run 5): the production suite in the synchronous forms (the count or the
# sum copied to the host inside the timing, for CUB alike), every case and every power of two (issue 8's figures)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production %e s" timeout 560 $S bench --device cuda --suite production --out $OUT/w/prod > $OUT/w/bench-production-cuda.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run7.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
awk '$3=="268435456" || $3=="134217728"' $OUT/w/bench-production-cuda.log | cut -c1-150
