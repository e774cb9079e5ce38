# stop 35, device run 2: reduce's last-block fold of the chunks' partials. reduce_tuning_old (HEAD before
# stop 35: one ordered tree per 32 partials, 64 registers, 4 blocks an SM) in mode grid, then reduce_tuning
# (the fold by runs of 4 or 8 vectors a lane) in mode fold; each row checked first, CUB in the same process
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
/usr/bin/time -f "old grid %e s" timeout 240 .device/pt/reduce_tuning_old grid > $OUT/reduce_tuning_old-grid.log 2>>$OUT/times.txt; echo "old rc $?" >> $OUT/rc.txt
/usr/bin/time -f "new fold %e s" timeout 240 .device/pt/reduce_tuning fold > $OUT/reduce_tuning-fold.log 2>>$OUT/times.txt; echo "new rc $?" >> $OUT/rc.txt
cat $OUT/rc.txt $OUT/times.txt; grep -E "n=(16777216|67108864|134217728|268435456|1073741824) " $OUT/reduce_tuning_old-grid.log | cut -c1-130; echo ==; grep -E "FAIL|n=(16777216|67108864|134217728|268435456|1073741824) " $OUT/reduce_tuning-fold.log | cut -c1-130
