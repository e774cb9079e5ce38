# stop 40, device run 7: the build with compact_if's pipeline from 32 MiB of four-byte elements (2^23): the GPU tests
# of compact and partition at the quick sizes, verify of compact's default on the full matrix and of every cuda
# algorithm on the quick one, then compact_if (_async) at 2^22-2^24 by the default, the single pass by name and
# CUB, twice
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 200 .device/sluice_tests --gtest_filter='*ompact*:*artition*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify %e s" timeout 100 $S verify --device cuda --algo decoupled-lookback > $OUT/w/verify-full.log 2>>$OUT/w/times.txt; echo "verify full rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify quick %e s" timeout 60 $S verify --device cuda --quick > $OUT/w/verify-quick.log 2>>$OUT/w/times.txt; echo "verify quick rc $?" >> $OUT/w/rc.txt
for k in 1 2; do for n in 2^22 2^23 2^24; do
  timeout 60 $S bench --device cuda --suite production --async --primitive compact_if --n $n --algo decoupled-lookback --algo decoupled-lookback:pipelined=off --algo cub --out $OUT/w/b$k >> $OUT/w/bench-threshold.log 2>&1; echo "compact_if $n rc $?" >> $OUT/w/rc.txt
done; done
gzip $OUT/w/tests.log $OUT/w/verify-quick.log $OUT/w/verify-full.log
(cd $OUT && tar czf run7.tgz w)
cat $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3; zcat $OUT/w/verify-full.log.gz | tail -3; zcat $OUT/w/verify-quick.log.gz | tail -1
grep -hE '^\[' $OUT/w/bench-threshold.log | grep -v copy | cut -c12-150
