# stop 46, device run 10 (an H200): reduce's 128 KiB chunks past 2^31 elements (bench/reduce_huge.cu: 2^31 + 1000
# u32, 65536 chunks, at the start and one element past it, dynamic=auto and on, against a 64-bit device sum).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
/usr/bin/time -f "reduce_huge %e s" timeout 120 .device/extra/reduce_huge > $OUT/w/reduce_huge.log 2>>$OUT/w/times.txt; echo "reduce_huge rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/reduce_huge.log
