# stop 46, device run 9 (an H200): reduce's 128 KiB chunks, whose kernel with the edges' code spills 4-8 bytes
# (64 KiB: none), at n and with a head and a tail (in + 1, n - 2), beside 64 KiB chunks and CUB
# (bench/reduce_tuning.cu edges), twice.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
for i in 1 2; do
  /usr/bin/time -f "reduce_tuning edges $i %e s" timeout 120 .device/extra/reduce_tuning edges > $OUT/w/reduce_tuning-edges-$i.log 2>>$OUT/w/times.txt; echo "edges $i rc $?" >> $OUT/w/rc.txt
done
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for i in 1 2; do grep -E "n=(16777216|67108864|134217728|268435456|1073741824)" $OUT/w/reduce_tuning-edges-$i.log | grep -v "copy  " | cut -c1-120; done
grep -h FAILED $OUT/w/*.log | head
