# stop 35, device run 1: the production suite in the _async forms (bench --async: the count or the sum left in
# device memory, sluice and CUB alike) at every size, then the synchronous forms at 2^28 in the same session
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "production async %e s" timeout 400 $S bench --device cuda --suite production --async --out $OUT/prod-async > $OUT/bench-production-async.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
/usr/bin/time -f "production sync 2^28 %e s" timeout 150 $S bench --device cuda --suite production --n 2^28 --out $OUT/prod-sync > $OUT/bench-production-sync-2p28.log 2>>$OUT/times.txt; echo "bench sync rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod-async prod-sync && rm -rf prod-async prod-sync)
cat $OUT/rc.txt $OUT/times.txt; grep -A400 "^primitive" $OUT/bench-production-async.log | grep -E "268435456|134217728|65536 " | cut -c1-140; grep -A80 "^primitive" $OUT/bench-production-sync-2p28.log | cut -c1-140
