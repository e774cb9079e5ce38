# stop 37, device run 3: the final code (partition_unordered; reduce as before): the whole GPU test suite
# (quick sizes), verify of every cuda algorithm on the quick matrix, the full matrix of partition_unordered's
# default, and the production suite's partition_unordered_if rows in the synchronous form at 2^28 (the table's
# size: u32 and f32 at 10 / 50 / 90% kept, u64 at 2^27)
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/w/tests-quick.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify %e s" timeout 100 $S verify --device cuda --quick > $OUT/w/verify.log 2>>$OUT/w/times.txt; echo "verify rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production 2^28 %e s" timeout 150 $S bench --device cuda --suite production --n 2^28 --primitive partition_unordered_if --out $OUT/w/prod28 > $OUT/w/bench-2e28.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests-quick.log $OUT/w/verify.log
(cd $OUT && tar czf run3.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests-quick.log.gz | tail -4; zcat $OUT/w/verify.log.gz | tail -1
sed -n '/^primitive /,$p' $OUT/w/bench-2e28.log | cut -c1-120
