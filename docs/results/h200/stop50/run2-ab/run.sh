# stop 50, device run 2 (an H200): this build (.device/sluice: the rotating pipelines clear a bank with an opaque
# zero; the 8-byte compact's pipeline as six kernels, one per comparison) against HEAD's library before it
# (.device/old/sluice, commit c343379), in turn, twice: compact_if, partition_if and partition_unordered_if at 2^28
# (2^27 for 8- and 16-byte elements), `_async`; then this build's checks: the GPU tests (quick matrix, huge ones
# left out), verify --quick, the pipelines forced on, the sanitizers over the pipelines on 7 blocks, and the whole
# production suite `_async`.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w && tar xJmf .device/bins.tar.xz -C .device && tar xJf .device/old.tar.xz -C .device
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
for rep in 1 2; do
  for which in old new; do
    B=$S; [ $which = old ] && B=.device/old/sluice
    for p in compact_if partition_if partition_unordered_if; do
      t ab-$which-$rep-$p 60 $B bench --device cuda --suite production --async --primitive $p --n 2^28 --out $OUT/w/ab/$which-$rep-$p
    done
  done
done
SLUICE_TEST_QUICK=1 t tests 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='-gpu.huge*'
t verify-quick 40 $S verify --device cuda --quick
t verify-pipelined 80 $S verify --device cuda --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7
P="--device cuda --quick --jobs 1 --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on,blocks=7"
t san-memcheck-pipelined 60 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify $P
t san-racecheck-pipelined 60 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify $P
t san-synccheck-pipelined 60 compute-sanitizer --tool synccheck --error-exitcode 9 $S verify $P
t production-async 90 $S bench --device cuda --suite production --async --out $OUT/w/async
rm -f $OUT/w/*/*.gp $OUT/w/ab/*/*.gp $OUT/w/ab/*/*.png $OUT/w/async/*.png
gzip $OUT/w/tests.log
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt | grep -v " rc 0"; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/verify*.log $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
for d in $OUT/w/ab/*; do echo "$(basename $d) $(grep -h -v -E '^copy|cub|^primitive' $d/*.csv | awk -F, '{printf "%s/%s:%.3f ", $4, $6, $10}')"; done
mkdir -p /tmp/keep && mv $OUT/w /tmp/keep/ && (cd /tmp/keep && tar czf $OUT/run2.tgz w)
