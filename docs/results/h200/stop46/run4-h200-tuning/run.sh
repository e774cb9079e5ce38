# stop 46, device run 4 (an H200): why the H100's tuning reaches less of the copy here (run 3). reduce's shapes
# (bench/reduce_tuning.cu, every row; then "dynamic") and the scan pipeline's shapes (bench/scan_wide.cu) beside
# CUB and the copy. Binaries built with the build lines in their headers, carried in .device/extra.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
X=.device/extra
/usr/bin/time -f "reduce_tuning %e s" timeout 240 $X/reduce_tuning > $OUT/w/reduce_tuning.log 2>>$OUT/w/times.txt; echo "reduce_tuning rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "reduce_tuning dynamic %e s" timeout 150 $X/reduce_tuning dynamic > $OUT/w/reduce_tuning-dynamic.log 2>>$OUT/w/times.txt; echo "reduce_tuning dynamic rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "scan_wide %e s" timeout 150 $X/scan_wide > $OUT/w/scan_wide.log 2>>$OUT/w/times.txt; echo "scan_wide rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run4.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
grep -E "n=(67108864|134217728|268435456|1073741824)" $OUT/w/reduce_tuning.log | cut -c1-130
grep -E "n=(67108864|134217728|268435456|1073741824)" $OUT/w/reduce_tuning-dynamic.log | cut -c1-130
cat $OUT/w/scan_wide.log
