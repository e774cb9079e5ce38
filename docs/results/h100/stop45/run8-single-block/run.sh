# stop 45, device run 8: reduce's one-block kernel with one redux.sync per warp (sum, minimum and maximum of 32-bit
# integers) and thread 0's combination unrolled (head < 4 elements, 8 warps' parts: every load issued before the
# first add waits), against the kernel before (binaries *_old: HEAD 2987c75's header and library; *_new: the
# change). Checks: verify of reduce's default (every type and operator, quick sizes), the registry's reduce
# tests and the synchronous reduce test. Timing: bench/host_path.cu old and new in turn (one call between
# events beside CUB, 2^10 and 2^12), three times each; bench/reduce_single_block.cu at 2^12 natively and under
# ncu (the kernels' own durations).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
D=.device
timeout 100 $D/sluice verify --device cuda --quick --algo vectorized --algo vectorized:dynamic=on > $OUT/w/verify.log 2>&1; echo "verify rc $?" >> $OUT/w/rc.txt
timeout 100 $D/sluice_tests --gtest_filter='*reduce*' > $OUT/w/tests.log 2>&1; echo "tests rc $?" >> $OUT/w/rc.txt
for i in 1 2 3; do for v in old new; do timeout 40 $D/host_path_$v > $OUT/w/host_path-$v-$i.log 2>&1; echo "host_path $v $i rc $?" >> $OUT/w/rc.txt; done; done
for v in old new; do timeout 40 $D/rsb_$v 12 > $OUT/w/rsb-$v.log 2>&1; echo "rsb $v rc $?" >> $OUT/w/rc.txt; done
for v in old new; do timeout 100 ncu --kernel-name regex:"single_kernel|SingleTile" --metrics gpu__time_duration.sum --csv $D/rsb_$v 12 > $OUT/w/ncu-rsb-$v.csv 2>&1; echo "ncu $v rc $?" >> $OUT/w/rc.txt; done
cat $OUT/gpu.txt $OUT/w/rc.txt; tail -1 $OUT/w/verify.log; grep -E "PASSED|FAILED" $OUT/w/tests.log
grep -h "one call: sluice" $OUT/w/host_path-*.log
grep -h "single_kernel launch (chevrons)\|one call cub" $OUT/w/host_path-*.log | head -12
grep -i "lib\|cub" $OUT/w/rsb-old.log $OUT/w/rsb-new.log | head -12
