# stop 36, device run 9: binaries of the CI clone of the last code change (find_algorithm without allocations on
# a call's path): the GPU quick test suite, verify of every cuda algorithm on the quick matrix, the GPU CLI tests
# of the production suite's direct CUB peer
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_brief=1 > $OUT/w/tests-quick.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "verify %e s" timeout 100 $S verify --device cuda --quick > $OUT/w/verify.log 2>>$OUT/w/times.txt; echo "verify rc $?" >> $OUT/w/rc.txt
$S bench --device cuda --suite production --n 2^12 --primitive partition_if --out $OUT/w/t1 > $OUT/w/cli-cub-direct.log 2>&1; echo "cli partition_if rc $?" >> $OUT/w/rc.txt
$S bench --device cuda --suite production --n 2^12 --primitive reduce --async --out $OUT/w/t2 > $OUT/w/cli-cub-direct-async.log 2>&1; echo "cli reduce async rc $?" >> $OUT/w/rc.txt
rm -rf $OUT/w/t1 $OUT/w/t2
gzip $OUT/w/tests-quick.log $OUT/w/verify.log
(cd $OUT && tar czf run9.tgz w && rm -rf w)
tar xzf $OUT/run9.tgz -C /tmp && cat /tmp/w/rc.txt /tmp/w/times.txt; zcat /tmp/w/tests-quick.log.gz | tail -3; zcat /tmp/w/verify.log.gz | tail -1
grep -E "cub|wrote" /tmp/w/cli-cub-direct.log /tmp/w/cli-cub-direct-async.log
