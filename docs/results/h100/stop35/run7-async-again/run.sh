# stop 35, device run 7: the final build (binaries of the CI clone of fd32b14): the whole production suite in
# the _async forms once more (run 1 was the build before reduce's new fold), for the spread between runs
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "production async %e s" timeout 400 $S bench --device cuda --suite production --async --out $OUT/prod-async > $OUT/bench-production-async.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod-async && rm -rf prod-async)
cat $OUT/rc.txt $OUT/times.txt
grep -A2000 "^primitive" $OUT/bench-production-async.log | awk '($2=="u32" || $2=="f32") && ($4=="-" || $4=="0.50") && $6 != "-" {printf "%s %s %d:%s\n", $1, $2, log($3)/log(2)+0.5, $(NF-2)}' | awk '{k=$1" "$2; v[k]=v[k]" "$3} END {for (k in v) print k v[k]}' | sort
