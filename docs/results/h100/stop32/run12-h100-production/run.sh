# stop 32, device run 12: the whole production suite with both changes (compact_if and scan pipelines)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
timeout 560 $S bench --device cuda --suite production --out $OUT/prod > $OUT/bench-production.log 2>&1; echo "bench rc $?" >> $OUT/rc.txt
cd $OUT && tar czf prod.tgz prod && rm -rf prod
cat $OUT/rc.txt; tail -5 $OUT/bench-production.log
