# stop 41, device run 6 (the build of run 5): compact_if and partition_if at 2^22, 2^23 and 2^24 (_async), three
# times each, since run 5's sweep measured both, and CUB's peers too, slower at 2^23 than at 2^24
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
for rep in 1 2 3; do for p in compact_if partition_if; do for n in 2^22 2^23 2^24; do
  timeout 60 $S bench --device cuda --suite production --async --primitive $p --n $n --out $OUT/w/x > $OUT/w/x.log 2>&1
  grep -E "^$p " $OUT/w/x.log | sed "s/^/rep $rep: /" >> $OUT/w/rows.txt
done; done; done
rm -rf $OUT/w/x $OUT/w/x.log
cat $OUT/gpu.txt $OUT/w/rows.txt | cut -c1-150
