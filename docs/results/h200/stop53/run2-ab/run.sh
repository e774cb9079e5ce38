# stop 53, device run 2: the synchronous compactions and partitions with their count read as it lands (this stop's
# library, .device/sluice) in turn with 52de7bd's (old: .device/old/sluice, stop 52's run 5, which waits for the
# stream), twice, at 2^10 .. 2^24 by powers of four and 2^25 (each size its own call, alike for both builds).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
ab_n 2 "compact compact_if partition partition_if partition_unordered_if" "1024 4096 16384 65536 262144 1048576 4194304 16777216" \
  old=.device/old/sluice new=.device/sluice --; keep
cat $OUT/gpu.txt $W/rc.txt | grep -v " rc 0"
grep -c . $W/times.txt
