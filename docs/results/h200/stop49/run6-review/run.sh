# stop 49, device run 6 (an H200): the final library after the review (the compact's and partition's C in one loop,
# machine code unchanged), built by the clean clone's `bash .ci/run` of 5acbb92: the GPU tests (quick matrix, huge
# ones left out), verify --quick, the pipelines forced on, and racecheck over the pipelines on 7 blocks.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w && tar xJmf .device/bins.tar.xz -C .device
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
SLUICE_TEST_QUICK=1 t tests 170 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 30 $S verify --device cuda --quick
t verify-pipelined 60 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
t san-racecheck-pipelined 30 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
