# stop 49, device run 1: where a small call's time goes today (bench/small_sizes.cu with the scan's host pieces,
# stop 49): two sweeps at 2^10, 2^12, 2^16, 2^20; ncu's kernel durations at 2^16 (no clock control, no flush).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
tar xzmf .device/extra.tar.gz -C .device
X=.device/extra
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
t ss-1 120 $X/small_sizes 10,12,16,20
t ss-2 120 $X/small_sizes 10,12,16,20
SMALL_SIZES_ONCE=1 t ncu-16 180 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum $X/small_sizes 16
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in ss-1 ss-2; do grep -E '^host|n=65536' $OUT/w/$f.log; done
grep -E '^  [a-z_].*\(|gpu__time_duration' $OUT/w/ncu-16.log | paste - - | sed 's/  */ /g' | tail -40
