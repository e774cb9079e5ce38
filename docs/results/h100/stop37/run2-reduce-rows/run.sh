# stop 37, device run 2: reduce's equal share by 512-byte rows instead of warp tiles (new) against the build
# before it (.device/old: run 1's binaries), alternating old, new, old, new over the production suite's reduce
# rows in the _async forms; then on the new build the GPU tests of reduce, verify of vectorized (full matrix,
# dynamic=off too) and compute-sanitizer memcheck and racecheck over the small reductions
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
for i in 1 2; do
  for b in old new; do
    S=.device/sluice; [ $b = old ] && S=.device/old/sluice
    timeout 120 $S bench --device cuda --suite production --async --primitive reduce --out $OUT/w/$b$i > $OUT/w/reduce-$b$i.log 2>&1; echo "reduce $b$i rc $?" >> $OUT/w/rc.txt
  done
done
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 150 .device/sluice_tests --gtest_brief=1 --gtest_filter='*educe*' > $OUT/w/tests-reduce.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify %e s" timeout 150 $S verify --device cuda --algo vectorized --algo vectorized:dynamic=off > $OUT/w/verify-vectorized.log 2>>$OUT/w/times.txt; echo "verify rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --max-size 300000 --algo vectorized:dynamic=off"
for t in memcheck racecheck; do timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/w/san-$t.log 2>&1; echo "san $t rc $?" >> $OUT/w/rc.txt; done
(cd $OUT && tar czf run2.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests-reduce.log; tail -1 $OUT/w/verify-vectorized.log; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
for k in 1024 4096 65536 1048576 4194304 8388608 16777216 33554432 67108864 134217728 268435456 1073741824; do
  for f in old1 new1 old2 new2; do awk -v k=$k -v f=$f '$1=="reduce" && $3==k {printf "%s %s %s %s %s %s\n", f, $2, $3, $7, $8, $9}' $OUT/w/reduce-$f.log; done
done
