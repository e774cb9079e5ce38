# stop 35, device run 5: the final build: the README's main job (`sluice bench`: verify every cuda algorithm,
# then the quick suite), then the production suite at 2^28 (and 2^27 wide elements) in the _async forms.
# Binaries: the CI clone of fd32b14 (main differs from it in docs only)
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "main job %e s" timeout 300 $S bench --out $OUT/quick > $OUT/bench-main-job.log 2>>$OUT/times.txt; echo "main job rc $?" >> $OUT/rc.txt
/usr/bin/time -f "production async 2^28 %e s" timeout 200 $S bench --device cuda --suite production --n 2^28 --async --out $OUT/prod-async > $OUT/bench-production-async-2p28.log 2>>$OUT/times.txt; echo "bench async rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf out.tgz quick prod-async && rm -rf quick prod-async)
cat $OUT/rc.txt $OUT/times.txt; grep -E "^verify|FAILED" $OUT/bench-main-job.log | head; tail -3 $OUT/bench-main-job.log
grep -A80 "^primitive" $OUT/bench-production-async-2p28.log | grep -E "u32|u64|b128" | cut -c1-130
