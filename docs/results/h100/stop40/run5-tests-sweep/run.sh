# stop 40, device run 5 (the build of run 4): the GPU tests of compact, partition, reduce and capture at the quick
# sizes, beside compute-sanitizer racecheck over the pipelined compact to 20000 elements (run 4's timed out at
# 60000); then compact_if at every power of two (_async) and the scans at 2^28 again (run 4's exclusive scan
# measured 0.923 of the copy)
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 270 .device/sluice_tests --gtest_filter='*ompact*:*artition*:*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt) &
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
/usr/bin/time -f "san racecheck %e s" timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V > $OUT/w/san-racecheck.log 2>>$OUT/w/times.txt; echo "san racecheck rc $?" >> $OUT/w/rc.txt
wait
/usr/bin/time -f "production compact_if %e s" timeout 150 $S bench --device cuda --suite production --async --primitive compact_if --out $OUT/w/prod-compact_if > $OUT/w/bench-compact_if.log 2>>$OUT/w/times.txt; echo "bench compact_if rc $?" >> $OUT/w/rc.txt
for p in inclusive_scan exclusive_scan; do /usr/bin/time -f "production $p 2^28 %e s" timeout 60 $S bench --device cuda --suite production --n 2^28 --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-$p.log 2>>$OUT/w/times.txt; echo "bench $p rc $?" >> $OUT/w/rc.txt; done
gzip $OUT/w/tests.log
(cd $OUT && tar czf run5.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -4; grep -h "RACECHECK SUMMARY\|ERROR SUMMARY" $OUT/w/san-racecheck.log
grep -hE 'scan' $OUT/w/bench-*_scan.log | cut -c1-150
