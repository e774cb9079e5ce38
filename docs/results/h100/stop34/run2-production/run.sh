# stop 34, device run 2: the whole production suite (the default and CUB timed in turn), then partition by
# predicate at 1 GiB from 10% to 95% kept (phased, the reversed pass, the sample's choice, CUB): the crossover
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "production %e s" timeout 430 $S bench --device cuda --suite production --out $OUT/prod > $OUT/bench-production.log 2>>$OUT/times.txt; echo "bench rc $?" >> $OUT/rc.txt
/usr/bin/time -f "partition_tuning %e s" timeout 150 .device/pt/partition_tuning > $OUT/partition_tuning.log 2>>$OUT/times.txt; echo "partition_tuning rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf prod.tgz prod && rm -rf prod)
cat $OUT/rc.txt $OUT/times.txt; grep -c "" $OUT/bench-production.log; grep "x CUB" $OUT/partition_tuning.log | cut -c1-110 | head -120
