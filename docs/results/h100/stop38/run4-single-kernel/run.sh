# stop 38, device run 4: reduce's one-block kernel with its parts as T, the tail code compiled in only where
# there is a tail, and the lanes' own folds for the built-in operators that commute; the kernels (events twice,
# ncu per-kernel means), the kernels alone against CUB (reduce_tuning order, 2^10-2^17), the GPU tests of
# reduce, verify of reduce's default on the full matrix, compute-sanitizer over the small reductions, and the
# production suite's reduce rows (_async, every power of two)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
for r in 1 2; do .device/rsb 10,12,15 > $OUT/w/events-$r.log 2>&1; echo "events $r rc $?" >> $OUT/w/rc.txt; done
for lg in 10 12 15; do
  timeout 120 ncu --clock-control none --cache-control none --print-summary per-kernel --metrics gpu__time_duration.sum .device/rsb $lg > $OUT/w/ncu-2p$lg.log 2>&1; echo "ncu $lg rc $?" >> $OUT/w/rc.txt
done
/usr/bin/time -f "order %e s" timeout 200 .device/reduce_tuning order > $OUT/w/order.log 2>>$OUT/w/times.txt; echo "order rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 200 $S verify --device cuda --algo vectorized > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 40000 --algo vectorized"
for t in memcheck racecheck synccheck; do timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "production reduce async %e s" timeout 200 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run4.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests-reduce.log; tail -1 $OUT/w/verify-vectorized.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
paste $OUT/w/events-1.log $OUT/w/events-2.log | awk -F'\t' '{print $1 "  |" substr($2, 20)}'
for lg in 10 12 15; do echo "== 2^$lg"; grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" $OUT/w/ncu-2p$lg.log | sed -E 's/\(.*//; s/ +/ /g; s/sluice::policy<unsigned int, 4, 8, 0, 8, 1, //' | paste - - | cut -c1-160; done
grep -E "x cub" $OUT/w/order.log | cut -c1-150
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
