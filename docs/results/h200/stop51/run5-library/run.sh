# stop 51, device run 5 (an H200): the library with the compact pipelines' shared memory all dynamic (the buffers on
# 128-byte lines, the block's variables after them) and B's tile counts summed by one redux.sync (.device/sluice)
# against HEAD c2849f2's library (.device/old/sluice: the build of f387a08, whose kernels HEAD's are), in turn:
# compact_if twice, compact (flags) and partition_unordered_if once, `_async`, 2^28 (8- and 16-byte elements 2^27);
# then this build's checks: the GPU tests (quick matrix, huge ones left out), verify --quick, the pipelines forced
# on, the sanitizers over the pipelines on 7 blocks.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
W=$OUT/w && mkdir -p $W  # here, so that what ran comes back even if the call's time runs out
tar xJmf .device/bins.tar.xz -C .device && tar xJf .device/old.tar.xz -C .device
S=.device/sluice
ab() { local rep=$1; shift; for which in "$@"; do B=$S; [ $which = old ] && B=.device/old/sluice
  for p in $PRIMS; do t ab-$which-$rep-$p 40 $B bench --device cuda --suite production --async --primitive $p --n 2^28 --out $W/ab/$which-$rep-$p; done; done; }
PRIMS=compact_if ab 1 old new; PRIMS=compact_if ab 2 new old
PRIMS="compact partition_unordered_if" ab 1 old new
SLUICE_TEST_QUICK=1 t tests 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 40 $S verify --device cuda --quick
t verify-pipelined 80 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
P="--device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7"
t san-memcheck-pipelined 40 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify $P
t san-racecheck-pipelined 40 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify $P
t san-synccheck-pipelined 40 compute-sanitizer --tool synccheck --error-exitcode 9 $S verify $P
rm -f $W/ab/*/*.gp $W/ab/*/*.png
gzip $W/tests.log
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"; zcat $W/tests.log.gz | tail -4
for f in $W/verify*.log $W/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
for d in $W/ab/*; do echo "$(basename $d) $(grep -h -v -E '^copy|cub|^primitive' $d/*.csv | awk -F, '{printf "%s/%s:%.3f ", $4, $6, $10}')"; done
