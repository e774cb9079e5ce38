# stop 38, device run 2: reduce's lanes fold their own elements for the built-in operators that commute
# (vectorized.cuh, policy::commuting): the kernels alone against the fold in input order and CUB
# (reduce_tuning order, 2^10 to 2^28), the one-block kernel's ncu durations, the GPU tests of reduce, verify
# of reduce's default on the full matrix, compute-sanitizer over the small reductions, and the production
# suite's reduce rows (_async, every power of two)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "order %e s" timeout 200 .device/reduce_tuning order > $OUT/w/order.log 2>>$OUT/w/times.txt; echo "order rc $?" >> $OUT/w/rc.txt
.device/rsb 10,12,15 > $OUT/w/events.log 2>&1; echo "events rc $?" >> $OUT/w/rc.txt
for lg in 10 12 15; do for k in single_kernel DeviceReduce; do
  timeout 60 ncu --clock-control none --cache-control none -k regex:$k --launch-skip 10 --launch-count 5 --metrics gpu__time_duration.sum .device/rsb $lg >> $OUT/w/ncu-2p$lg.log 2>&1; echo "ncu $lg $k rc $?" >> $OUT/w/rc.txt
done; done
/usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 200 $S verify --device cuda --algo vectorized > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 40000 --algo vectorized"
for t in memcheck racecheck synccheck; do timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "production reduce async %e s" timeout 200 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run2.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -3 $OUT/w/tests-reduce.log; tail -2 $OUT/w/verify-vectorized.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
for lg in 10 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z].*\(|gpu__time_duration" $OUT/w/ncu-2p$lg.log | paste - - | awk '{print $1, $NF}' | paste -s -d' ' | cut -c1-300; done
grep -E "n=(1024|4096|65536|1048576|4194304|16777216|67108864|268435456) " $OUT/w/order.log | cut -c1-150
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
