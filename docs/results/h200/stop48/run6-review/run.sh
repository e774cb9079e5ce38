# stop 48, device run 6 (an H200): the final library after the review (fixed_threshold calls threshold's own
# operator; the predicate instantiations in three files), built by the clean clone's `bash .ci/run`: the GPU tests
# (quick matrix, huge ones left out), verify --quick, and racecheck over the pipelines on 7 blocks.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 40 $S verify --device cuda --quick
t san-racecheck-pipelined 40 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
