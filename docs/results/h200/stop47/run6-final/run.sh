# stop 47, device run 6 (an H200): the final library (the scan pipeline's tiles in rotating register banks,
# rotate_rounds; the compact's pipeline as before, run 5's banks there not adopted): the GPU tests (quick matrix,
# huge ones excluded), verify --quick, the pipelines forced on (full grid and 7 blocks: several rounds a block);
# compute-sanitizer racecheck, memcheck and synccheck over the pipelines on 7 blocks; then the whole production
# suite, `_async` and synchronous; CSVs and logs tarred.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 240 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 60 $S verify --device cuda --quick
t verify-pipelined 120 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
P="--algo decoupled-lookback:pipelined=on,blocks=7"
t san-racecheck-pipelined 120 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 --max-size 5000 $P
t san-memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P --algo decoupled-lookback:pipelined=on
t san-synccheck 90 compute-sanitizer --tool synccheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P
t production-async 200 $S bench --device cuda --suite production --async --out $OUT/w/async
t production-sync 200 $S bench --device cuda --suite production --out $OUT/w/sync
rm -f $OUT/w/*/*.gp
gzip $OUT/w/tests.log
(cd $OUT && tar czf run6.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
grep -E ',(268435456|134217728),' $OUT/w/async/*.csv | grep -v -E '^copy|,cub' | cut -d, -f1,2,4,6,10 | head -60
