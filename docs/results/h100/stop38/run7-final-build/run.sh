# stop 38, device run 7: the final build (dynamic_kernel's launch bound back to none, as before stop 38):
# the GPU tests of reduce and of capture, verify of reduce's default on the full matrix and of every cuda
# algorithm on the quick one, compute-sanitizer memcheck over the small reductions, and the production suite's
# reduce rows (_async, every power of two); and a study for the next stop: the equal-share body whose last block
# folds the partials as T by runs of vectors (reduce_tuning lastfold, 2^22-2^26)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 150 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 60 $S verify --device cuda --algo vectorized > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --max-size 40000 --algo vectorized --algo vectorized:dynamic=on > $OUT/w/san-memcheck.log 2>&1; echo "san memcheck rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production reduce async %e s" timeout 150 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/prod-reduce > $OUT/w/bench-reduce-async.log 2>>$OUT/w/times.txt; echo "bench reduce rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "lastfold %e s" timeout 100 .device/reduce_tuning lastfold > $OUT/w/lastfold.log 2>>$OUT/w/times.txt; echo "lastfold rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run7.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests-reduce.log; tail -1 $OUT/w/verify-vectorized.log; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY" $OUT/w/san-*.log
sed -n '/^primitive /,$p' $OUT/w/bench-reduce-async.log | awk '$1=="reduce"' | cut -c1-130
grep -E "x cub|FAIL|failures" $OUT/w/lastfold.log | cut -c1-130
