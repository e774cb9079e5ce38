# stop 50, device run 3 (an H200): bench/reduce_tuning.cu "tail" (built from commit 112c94a's headers plus the
# chunk_layout study: the dynamic kernel's last tiles in smaller chunks), u32 and f32, each row checked first; then,
# with the binaries of the clean clone's `bash .ci/run` of e104260 (the library of this stop): compute-sanitizer
# memcheck and racecheck over gpu.every_comparison_through_the_gpu_compactions (sanitizing sizes, the pipelines on
# 7 blocks: the 8-byte compact's six kernels), and the whole production suite, synchronous.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w && tar xJmf .device/ci.tar.xz -C .device
C=.device/ci
export LD_LIBRARY_PATH=$PWD/$C/lib:$LD_LIBRARY_PATH
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
t reduce-tail 150 $C/reduce_tuning tail
F=gpu.every_comparison_through_the_gpu_compactions
SLUICE_TEST_QUICK=1 SLUICE_TEST_SANITIZE=1 t san-memcheck-comparisons 150 compute-sanitizer --tool memcheck --error-exitcode 9 --report-api-errors no $C/sluice_tests --gtest_filter=$F
SLUICE_TEST_QUICK=1 SLUICE_TEST_SANITIZE=1 t san-racecheck-comparisons 180 compute-sanitizer --tool racecheck --error-exitcode 9 --report-api-errors no $C/sluice_tests --gtest_filter=$F
t production-sync 100 $C/sluice bench --device cuda --suite production --out $OUT/w/sync
rm -f $OUT/w/*/*.gp $OUT/w/*/*.png
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|PASSED|FAILED' $f | tail -3 | tr '\n' ' ')"; done
grep -E 'copy|cub|library|tail|FAILED|failures' $OUT/w/reduce-tail.log
mkdir -p /tmp/keep && mv $OUT/w /tmp/keep/ && (cd /tmp/keep && tar czf $OUT/run3.tgz w)
