# stop 54, device run 2: where run 1's cluster path stands without CUB between the calls, and its kernels' own time.
# Three builds of one library: spread (.device/sluice, the cluster's blocks one to an SM), packed
# (.device/packed/sluice, built with SLUICE_CLUSTER_STUDY_PACKED: the blocks where the device puts them) and off (the
# first with cluster=off: the look-back); ncu's gpu__time_duration of the select and scan kernels at 2^16; the calls
# alone (--algo decoupled-lookback, no CUB between them) in turn, synchronous and _async; and the float scans' anchored
# look-back (.device/sluice) in turn with 05f9559's (old) at 2^18 .. 2^23, four times.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54b.tar.xz -C .device  # sluice, packed/sluice, old/sluice
S=.device/sluice
printf '#!/bin/bash\nexec "$(dirname "$0")/sluice" "${@//decoupled-lookback/decoupled-lookback:cluster=off}"\n' > .device/off.sh
chmod +x .device/off.sh
B="spread=$S packed=.device/packed/sluice off=.device/off.sh"
for b in $B; do for p in partition_if partition compact_if inclusive_scan; do
  t ncu-${b%%=*}-$p 90 ncu --clock-control none -k regex:'select_kernel|scan_kernel' --metrics gpu__time_duration.sum \
    ${b#*=} bench --device cuda --suite production --primitive $p --n 65536 --algo decoupled-lookback --async --out $W/ncu-out
done; done; keep
P="inclusive_scan compact compact_if partition partition_if partition_unordered_if"
ab_n 4 "$P" "65536" $B -- --algo decoupled-lookback; mkdir -p $W/sync && mv $W/ab $W/sync/ab; keep
ab_n 4 "$P" "65536" $B -- --algo decoupled-lookback --async; mkdir -p $W/async && mv $W/ab $W/async/ab; keep
ab_n 4 "inclusive_scan" "262144 1048576 4194304 8388608" old=.device/old/sluice new=$S --; mkdir -p $W/scan && mv $W/ab $W/scan/ab; keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0" | grep -v "^ab-"
for f in $W/ncu-*.log; do echo "$(basename $f .log): $(grep -E 'gpu__time_duration.sum' $f | awk '{print $NF}' | sort -n | awk '{a[NR]=$1} END {print NR " kernels, median " a[int((NR+1)/2)] " us"}')"; done
