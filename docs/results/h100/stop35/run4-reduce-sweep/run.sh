# stop 35, device run 4: the same build as run 3 (reduce's fold by runs of 8 vectors a lane): the production
# sweep of reduce, 2^10 .. 2^30, in the synchronous form and in the _async form (--async), each beside CUB
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "reduce sync %e s" timeout 285 $S bench --device cuda --suite production --primitive reduce --out $OUT/prod-sync > $OUT/bench-reduce-sync.log 2>>$OUT/times.txt; echo "bench sync rc $?" >> $OUT/rc.txt
/usr/bin/time -f "reduce async %e s" timeout 285 $S bench --device cuda --suite production --primitive reduce --async --out $OUT/prod-async > $OUT/bench-reduce-async.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod-sync prod-async && rm -rf prod-sync prod-async)
cat $OUT/rc.txt $OUT/times.txt
for f in sync async; do echo $f; grep -A80 "^primitive" $OUT/bench-reduce-$f.log | awk '$1=="reduce" {printf "%s %d:%s\n", $2, log($3)/log(2)+0.5, $(NF-2)}' | paste -sd' '; done
