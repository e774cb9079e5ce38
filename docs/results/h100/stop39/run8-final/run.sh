# stop 39, device run 8, the final code: as run 7, with the edges' slots after the body's ([body, tail, head]), so
# that the last block's fold of the plain partials (dynamic kernel) starts 16-byte aligned; run 7: as run 5
# (fold_edges inline, its rounds' loads one after another), with
# the dynamic kernel held to 4 blocks an SM by its launch bound (64 registers with or without the edges' code);
# reduce with the input's edges folded by one more block of the grid (fold_edges; its own
# slots), the body's blocks all alike; otherwise as run 4 (blocks' partials as packed words counted
# relaxed; the last block folds them alone): the GPU tests of reduce and of capture, verify of reduce's default (and dynamic=off,
# dynamic=on) on the full matrix and of every cuda algorithm on the quick one, compute-sanitizer memcheck,
# racecheck and synccheck over reduce to 300000 elements, bench/reduce_tail.cu, and the production suite's
# reduce rows (_async, every power of two)
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 150 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 60 $S verify --device cuda --algo vectorized --algo vectorized:dynamic=off --algo vectorized:dynamic=on > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 300000 --algo vectorized --algo vectorized:dynamic=off --algo vectorized:dynamic=on"
for t in memcheck racecheck synccheck; do timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
timeout 60 .device/reduce_tail > $OUT/w/reduce-tail.log 2>&1; echo "reduce_tail rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production reduce async %e s" timeout 150 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run8.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests-reduce.log; tail -4 $OUT/w/verify-vectorized.log; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
grep -E "FAIL|library|cub " $OUT/w/reduce-tail.log
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
