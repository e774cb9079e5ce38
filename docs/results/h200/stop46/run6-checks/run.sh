# stop 46, device run 6 (an H200): the library with reduce's 128 KiB chunks and the scan pipeline's 2 buffers:
# the GPU tests (quick matrix, huge ones excluded), verify --quick, the pipelines forced on to 2^22 and on 7
# blocks, reduce's dynamic kernel forced on; compute-sanitizer: racecheck over the pipelines on 7 blocks and
# over reduce's dynamic kernel, memcheck and synccheck over the pipelines and reduce's dynamic kernel.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 240 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 60 $S verify --device cuda --quick
t verify-pipelined 120 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7 --algo vectorized:dynamic=on
P="--algo decoupled-lookback:pipelined=on,blocks=7"
t san-racecheck-pipelined 120 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 --max-size 5000 $P
t san-racecheck-dynamic 60 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 70000 --algo vectorized:dynamic=on
t san-memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P --algo decoupled-lookback:pipelined=on --algo vectorized:dynamic=on
t san-synccheck 90 compute-sanitizer --tool synccheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P --algo vectorized:dynamic=on
gzip $OUT/w/tests.log
(cd $OUT && tar czf run6.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
