# stop 38, device run 6: on the H100 machine's 16-core host, partition_unordered_if against the stable
# partition_if and compact_if at 2^26 (u32, 50% kept; each with its memcpy-mt, alternating twice: the
# measurement stop 37 left for a host with more cores per memory channel); then reduce's call at 2^22-2^25
# one call at a time: public API, vectorized::run and CUB (small_sizes)
cd "$(dirname "$0")/../../../../.."
tar xzf .device/bins.tar.gz -C .device; tar xzf .device/ss.tgz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
lscpu > $OUT/w/lscpu.txt
S=.device/sluice
for r in 1 2; do for p in partition_if partition_unordered_if compact_if; do
  timeout 100 $S bench --device cpu --suite production --n 67108864 --primitive $p --out $OUT/w/cpu-$p-$r > $OUT/w/cpu-$p-$r.log 2>&1; echo "cpu $p $r rc $?" >> $OUT/w/rc.txt
done; done
timeout 120 .device/small_sizes 22,23,24,25 > $OUT/w/small-sizes.log 2>&1; echo "small_sizes rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run6.tgz w)
cat $OUT/w/rc.txt; grep -E "Model name|^CPU\(s\)" $OUT/w/lscpu.txt
for f in $OUT/w/cpu-*.log; do echo "== $f"; sed -n '/^primitive /,$p' $f | cut -c1-130; done
grep -E "reduce|vectorized|empty kernel " $OUT/w/small-sizes.log
