# stop 38, device run 8: reduce's equal-share body kernel now stores its blocks' partials as T and its last
# block folds them by runs of 2 vectors a lane (fold_partials_in_order), under __launch_bounds__(256, 8):
# the GPU tests of reduce and of capture, verify of reduce's default (and dynamic=off, dynamic=on) on the full
# matrix and of every cuda algorithm on the quick one, compute-sanitizer memcheck and racecheck over the small
# reductions, reduce's call at 2^22-2^25 one call at a time and back to back (small_sizes), and the production
# suite's reduce rows (_async, every power of two)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device; tar xzf .device/ss.tgz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 150 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 60 $S verify --device cuda --algo vectorized --algo vectorized:dynamic=off --algo vectorized:dynamic=on > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 300000 --algo vectorized --algo vectorized:dynamic=off"
for t in memcheck racecheck; do timeout 60 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
timeout 60 .device/small_sizes 22,23,24,25 > $OUT/w/small-sizes.log 2>&1; echo "small_sizes rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production reduce async %e s" timeout 150 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run8.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests-reduce.log; tail -4 $OUT/w/verify-vectorized.log; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
grep -E "reduce|vectorized|empty kernel " $OUT/w/small-sizes.log
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
