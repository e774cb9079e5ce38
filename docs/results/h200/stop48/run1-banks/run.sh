# stop 48, device run 1: the compact's pipelines with rotating register banks for 4-byte elements by predicate and
# the threshold without a branch on its operator (this stop's library, .device/sluice) against stop 47's final
# library (.device/old/sluice, from .device/old.tar.xz), in turn, twice: compact_if, partition_if and
# partition_unordered_if at 2^28 (and 2^27 for 8- and 16-byte elements) and 2^25, `_async`; the new library's GPU
# tests of the comparisons, pipelines and partitions; the sanitizers over the pipelines on 7 blocks; the whole
# production suite of the new library, `_async` and synchronous.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w .device/old && tar xJf .device/old.tar.xz -C .device/old
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
for rep in 1 2; do
  for which in old new; do
    B=$S; [ $which = old ] && B=.device/old/sluice
    for n in 2^28 2^25; do
      for p in compact_if partition_if partition_unordered_if; do
        t ab-$which-$rep-$p-${n/^/_} 60 $B bench --device cuda --suite production --async --primitive $p --n $n --out $OUT/w/ab/$which-$rep-${n/^/_}-$p
      done
    done
  done
done
SLUICE_TEST_QUICK=1 t tests 200 .device/sluice_tests --gtest_brief=1 --gtest_filter='*comparison*:*pipelined*:*partition*:*compaction*:*misaligned*:-gpu.huge*'
P="--algo decoupled-lookback:pipelined=on,blocks=7"
t san-racecheck-pipelined 120 compute-sanitizer --tool racecheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 8 --max-size 5000 $P
t san-memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P --algo decoupled-lookback:pipelined=on
t san-synccheck 90 compute-sanitizer --tool synccheck --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --sample 4 --max-size 20000 $P
t production-async 120 $S bench --device cuda --suite production --async --out $OUT/w/async
rm -f $OUT/w/*/*.gp $OUT/w/ab/*/*.gp $OUT/w/ab/*/*.png
gzip $OUT/w/tests.log
(cd $OUT && tar czf run1.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt | grep -v " rc 0"; zcat $OUT/w/tests.log.gz | tail -4
for f in $OUT/w/san-*.log; do echo "$(basename $f): $(grep -E 'SUMMARY|passed, ' $f | tail -2 | tr '\n' ' ')"; done
for d in $OUT/w/ab/*; do echo "$(basename $d) $(grep -h -v -E '^copy|cub|^primitive' $d/*.csv | awk -F, '{printf "%s/%s:%.3f ", $4, $6, $10}')"; done
