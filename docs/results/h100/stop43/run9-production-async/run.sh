# stop 43, device run 9 (run 4's build, commit 761df71: the look-backs read 2 words a thread): the production suite
# in the _async forms, every case and every power of two, in turn with CUB (issue 8's figures, issue 5's table)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
/usr/bin/time -f "production async %e s" timeout 470 $S bench --device cuda --suite production --async --out $OUT/w/prod-async > $OUT/w/bench-production-cuda-async.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run9.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
sed -n '/^primitive /,$p' $OUT/w/bench-production-cuda-async.log | cut -c1-150 | head -80
