# stop 52, device run 1 (an H200): what stop 51 left unmeasured.
# 1. partition_if (its reversed pass runs the compact pipeline, whose buffers stop 51 moved onto 128-byte lines) in
#    turn with stop 50's library (.device/old/sluice: the build of f387a08), `_async`, 2^28 (8- and 16-byte at 2^27).
# 2. Branch study/scan-lines (.device/sluice_lines: the pipelined scan's shared memory all dynamic, buffers on lines)
#    in turn with main's library (.device/sluice, 884d600's build), inclusive and exclusive scan at 2^28.
# 3. main's whole production suite, synchronous and `_async`, 2^10 .. 2^30, and the full `verify --algo all`.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r1.tar.xz -C .device && tar xJf .device/lib.tar.xz -C .device
S=.device/sluice
ab 2 partition_if old=.device/old/sluice new=$S -- --async --n 2^28; keep
ab 2 "inclusive_scan exclusive_scan" main=$S lines=.device/sluice_lines -- --n 2^28; keep
t production-sync 150 $S bench --device cuda --suite production --out $W/sync; keep
t production-async 150 $S bench --device cuda --suite production --async --out $W/async; keep
t verify-all 200 $S verify --device cuda --algo all; keep
rm -f $W/*/*.gp $W/*/*.png
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
tail -2 $W/verify-all.log
ab_summary
keep
