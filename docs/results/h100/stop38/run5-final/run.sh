# stop 38, device run 5: the final code. reduce's one-block kernel without a division by a variable (events,
# ncu per-kernel means), the host's share of a call (small_sizes), the whole GPU test suite at quick sizes,
# verify --quick of every cuda algorithm, compute-sanitizer over the small reductions and over
# partition_unordered (its pass alone no longer allocates the unused decision word), and the production
# suite's reduce rows (_async)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device; tar xzf .device/ss.tgz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice T=.device/sluice_tests
.device/rsb 10,12,15 > $OUT/w/events.log 2>&1; echo "events rc $?" >> $OUT/w/rc.txt
for lg in 12 15; do
  timeout 60 ncu --clock-control none --cache-control none --print-summary per-kernel --metrics gpu__time_duration.sum .device/rsb $lg > $OUT/w/ncu-2p$lg.log 2>&1; echo "ncu $lg rc $?" >> $OUT/w/rc.txt
done
timeout 60 .device/small_sizes 12,16 > $OUT/w/small-sizes.log 2>&1; echo "small_sizes rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "tests quick %e s" env SLUICE_TEST_QUICK=1 timeout 230 $T --gtest_brief=1 > $OUT/w/tests-quick.log 2>>$OUT/w/times.txt; echo "tests quick rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --max-size 40000 --algo vectorized > $OUT/w/san-memcheck-reduce.log 2>&1; echo "san memcheck reduce rc $?" >> $OUT/w/rc.txt
for t in memcheck racecheck; do SLUICE_TEST_SANITIZE=1 SLUICE_TEST_MAX_SIZE=40000 timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $T --gtest_brief=1 --gtest_filter='*matrix*partition_unordered*cuda*:*unordered_partitions*' > $OUT/w/san-$t-pu.log 2>&1; echo "san $t partition_unordered rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "production reduce async %e s" timeout 150 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run5.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -3 $OUT/w/tests-quick.log; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
grep -E "lib|cub|commuting " $OUT/w/events.log
for lg in 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $OUT/w/ncu-2p$lg.log | sed -E 's/\(.*//; s/ +/ /g; s/sluice::policy<unsigned int, 4, 8, 0, 8, 1, //; s/cub::policy_hub.*//' | paste - - | cut -c1-120; done
grep -E "host|reduce|vectorized|empty" $OUT/w/small-sizes.log
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
