# stop 37, device run 1: partition_unordered (new): its GPU tests (one-pass and pipelined paths, misaligned
# spans, graph capture), the registry matrix and the pipelined policies for it, compute-sanitizer memcheck,
# racecheck and synccheck over its matrix (small sizes) and its own test, then the pipelined=on/off crossover
# against CUB's partition at 2^21-2^27 and the production sweep of partition_unordered_if in the _async forms
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
T=.device/sluice_tests
/usr/bin/time -f "tests %e s" timeout 300 $T --gtest_brief=1 --gtest_filter='*partition_unordered*:*unordered_partitions*:*moves_of_misaligned*:*policies*pipelined*:*list_has*:*partitions*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
for t in memcheck racecheck synccheck; do SLUICE_TEST_SANITIZE=1 SLUICE_TEST_MAX_SIZE=40000 timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $T --gtest_brief=1 --gtest_filter='*matrix*partition_unordered*cuda*:*unordered_partitions*' > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
for k in 21 22 23 24 25 26 27; do timeout 60 $S bench --device cuda --suite production --async --primitive partition_unordered_if --n 2^$k --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=off --algo cub --out $OUT/w/x$k > $OUT/w/crossover-$k.log 2>&1; echo "crossover $k rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "production async %e s" timeout 400 $S bench --device cuda --suite production --async --primitive partition_unordered_if --out $OUT/w/prod > $OUT/w/bench-production-async.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run1.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -3 $OUT/w/tests.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|PASSED\|FAILED" $OUT/w/san-*.log | head
for k in 21 22 23 24 25 26 27; do sed -n '/^primitive /,$p' $OUT/w/crossover-$k.log | grep -v "^$" | cut -c1-120; done
sed -n '/^primitive /,$p' $OUT/w/bench-production-async.log | cut -c1-120
