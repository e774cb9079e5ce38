# stop 34, device run 5: the build with the sample's threshold at 65% kept (and the copy yardstick the fastest of three
# medians): partition by predicate at 1 GiB, 10-95% kept; reduce at every size (the default and CUB in turn); GPU quick suite
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/gpu.txt
S=.device/sluice
/usr/bin/time -f "partition_tuning %e s" timeout 150 .device/pt/partition_tuning > $OUT/partition_tuning.log 2>>$OUT/times.txt; echo "partition_tuning rc $?" >> $OUT/rc.txt
/usr/bin/time -f "reduce %e s" timeout 120 $S bench --device cuda --suite production --primitive reduce --out $OUT/reduce > $OUT/bench-reduce.log 2>>$OUT/times.txt; echo "bench rc $?" >> $OUT/rc.txt
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/tests-quick.log 2>>$OUT/times.txt; echo "tests rc $?" >> $OUT/rc.txt
gzip $OUT/tests-quick.log; (cd $OUT && tar czf reduce.tgz reduce && rm -rf reduce)
cat $OUT/rc.txt $OUT/times.txt; zcat $OUT/tests-quick.log.gz | tail -3
grep -E "best|phased|reversed=on " $OUT/partition_tuning.log | cut -c1-100
grep -E " copy |reduce " $OUT/bench-reduce.log | awk '$1 ~ /^reduce|^copy/ || $3 ~ /copy|reduce/' | tail -50
