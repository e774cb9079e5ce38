# stop 40, device run 4: the build with the compact pipeline's new shapes (7 vectors for u32 by predicate and for
# flags, the held tiles' ranks packed) and reduce's review leftovers (put_block_part, load_warp_tile, the dynamic
# kernel chosen once): the GPU tests of compact, partition, reduce and capture; verify of every cuda algorithm on
# the quick matrix and of the pipelined compact (pipelined=on, blocks=7, blocks=1) and reduce on the full one;
# compute-sanitizer memcheck, synccheck and racecheck over the pipelined compact and reduce; bench/pipe_trace
# packed (the old and new shapes side by side); the production suite at 2^28 (2^27 for 8- and 16-byte elements),
# _async forms
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
/usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*ompact*:*artition*:*educe*:*Capture*:*capture*:*Graph*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify full %e s" timeout 150 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo decoupled-lookback:pipelined=on,blocks=1 --algo vectorized --algo vectorized:dynamic=on > $OUT/w/verify-full.log 2>>$OUT/w/times.txt; echo "verify full rc $?" >> $OUT/w/rc.txt
V="verify --device cuda --quick --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo vectorized --algo vectorized:dynamic=on"
for t in memcheck synccheck; do /usr/bin/time -f "san $t %e s" timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $S $V --max-size 200000 > $OUT/w/san-$t.log 2>>$OUT/w/times.txt; echo "san $t rc $?" >> $OUT/w/rc.txt; done
/usr/bin/time -f "san racecheck %e s" timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --max-size 60000 > $OUT/w/san-racecheck.log 2>>$OUT/w/times.txt; echo "san racecheck rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "pipe_trace %e s" timeout 150 .device/pipe_trace packed > $OUT/w/pipe-packed.log 2>>$OUT/w/times.txt; echo "pipe_trace rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "production 2^28 %e s" timeout 150 $S bench --device cuda --suite production --async --n 2^28 --out $OUT/w/prod-2p28 > $OUT/w/bench-production-2p28.log 2>>$OUT/w/times.txt; echo "bench rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run4.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -2 $OUT/w/tests.log; tail -1 $OUT/w/verify-quick.log; grep -c passed $OUT/w/verify-full.log; grep -v ' 0 failed' $OUT/w/verify-full.log | tail -3; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log
cat $OUT/w/pipe-packed.log
sed -n '/^primitive /,$p' $OUT/w/bench-production-2p28.log | cut -c1-150
