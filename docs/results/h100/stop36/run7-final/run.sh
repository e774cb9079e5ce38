# stop 36, device run 7: the final code (reduce's one-block kernel by warp tiles; the production suite's CUB
# rows calling CUB directly): the GPU tests of reduce, verify of reduce's default on the full matrix and of
# every cuda algorithm on the quick one, compute-sanitizer memcheck, racecheck and synccheck over the small
# reductions, then the whole production suite in the _async forms
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify vectorized %e s" timeout 200 $S verify --device cuda --algo vectorized > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify vectorized rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 100 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 40000 --algo vectorized"
for t in memcheck racecheck synccheck; do timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "production async %e s" timeout 420 $S bench --device cuda --suite production --async --out $OUT/w/prod-async > $OUT/w/bench-production-async.log 2>>$OUT/w/times.txt; echo "bench async rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run7.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -3 $OUT/w/tests-reduce.log; tail -2 $OUT/w/verify-vectorized.log; tail -1 $OUT/w/verify-quick.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
sed -n '/^primitive /,$p' $OUT/w/bench-production-async.log | awk '$1=="reduce"' | cut -c1-130
