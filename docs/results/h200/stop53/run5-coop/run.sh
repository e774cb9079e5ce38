# stop 53, device run 5: bench/coop_launch.cu (no library), twice: a plain launch against a cooperative one of the
# same copying kernel, 8 to 528 blocks, one call at a time and back to back.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
for r in 1 2; do t coop-$r 120 .device/coop_launch 201; mv $W/coop-$r.log $W/coop-$r.csv; done; keep
cat $OUT/gpu.txt $W/rc.txt $W/coop-*.csv
