# stop 45, device run 9: reduce's one-block kernel with the unrolled combination kept to the commuting kernel
# (run 8: it made the in-order kernel with a tail 0.23 us slower): bench/reduce_single_block.cu at 2^12 under
# ncu, the kernel before (rsb_old) and the final one (rsb_new2), in turn, twice.
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
for i in 1 2; do for v in old new2; do timeout 80 ncu --kernel-name regex:"single_kernel|SingleTile" --metrics gpu__time_duration.sum --csv .device/r9/rsb_$v 12 > $OUT/w/ncu-rsb-$v-$i.csv 2>&1; echo "ncu $v $i rc $?" >> $OUT/w/rc.txt; done; done
tar czf $OUT/run9.tgz -C $OUT w; cat $OUT/w/rc.txt
