# stop 48, device run 3: run 2's library (the compact's pipelines for 4-byte elements by predicate in rotating
# register banks, one kernel per comparison): the GPU tests (quick matrix, huge ones excluded), verify --quick,
# the pipelines forced on (full grid and 7 blocks), and the whole production suite, synchronous (run 2 timed
# the `_async` one).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 240 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 60 $S verify --device cuda --quick
t verify-pipelined 120 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
t production-sync 150 $S bench --device cuda --suite production --out $OUT/w/sync
rm -f $OUT/w/*/*.gp
gzip $OUT/w/tests.log
(cd $OUT && tar czf run3.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/verify*.log; do echo "$(basename $f): $(grep -E 'passed, ' $f | tail -1)"; done
