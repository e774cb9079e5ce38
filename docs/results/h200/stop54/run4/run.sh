# stop 54, device run 4: the final build's kernels at 2^16 under ncu (gpu__time_duration, no clock control), the
# cluster path (.device/sluice) against the look-back (the same binary with cluster=off), each call alone
# (--algo decoupled-lookback, _async: no count copied), twice in turn.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54c.tar.xz -C .device sluice lib
S=.device/sluice
printf '#!/bin/bash\nexec "$(dirname "$0")/sluice" "${@//decoupled-lookback/decoupled-lookback:cluster=off}"\n' > .device/off.sh
chmod +x .device/off.sh
for r in 1 2; do for p in compact compact_if partition partition_if partition_unordered_if inclusive_scan; do
  for b in cluster=$S off=.device/off.sh; do
    t ncu-${b%%=*}-$p-$r 90 ncu --clock-control none -k regex:'select_kernel|scan_kernel' --metrics gpu__time_duration.sum \
      ${b#*=} bench --device cuda --suite production --primitive $p --n 65536 --algo decoupled-lookback --async --out $W/ncu-out
  done
done; done; keep
for f in $W/ncu-*.log; do echo "$(basename $f .log): $(grep -E 'gpu__time_duration.sum' $f | awk '{print $(NF-1), $NF}' | sort -k2 -n | awk '{a[NR]=$2; u=$1} END {print NR, u, "min", a[1], "med", a[int((NR+1)/2)], "max", a[NR]}')"; done
