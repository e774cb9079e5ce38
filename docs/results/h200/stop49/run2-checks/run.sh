# stop 49, device run 2 (an H200): the library with one launch helper for the compact's pipelines
# (launch_pipeline): the GPU tests (quick matrix, huge ones left out), verify --quick, verify with the pipelines
# forced on (the full grid and 7 blocks), memcheck and racecheck over the pipelines on 7 blocks, and the whole
# production suite in both forms.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 240 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 60 $S verify --device cuda --quick
t verify-pipelined 120 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
P="--device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7"
t san-memcheck-pipelined 60 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify $P
t san-racecheck-pipelined 60 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify $P
t production-async 150 $S bench --device cuda --suite production --async --out $OUT/w/async
t production-sync 150 $S bench --device cuda --suite production --out $OUT/w/sync
rm -f $OUT/w/*/*.gp
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
