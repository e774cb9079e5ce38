# stop 47, device run 7 (an H200): the README's main job, `sluice bench` with no arguments but --out, on the
# final library (run 6's binaries).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
/usr/bin/time -f "main job %e s" timeout 150 .device/sluice bench --out $OUT/w/main-job > $OUT/w/main-job.log 2>$OUT/w/times.txt; echo "main job rc $?" >> $OUT/w/rc.txt
rm -f $OUT/w/main-job/*.gp
(cd $OUT && tar czf run7.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; ls $OUT/w/main-job; head -30 $OUT/w/main-job.log | cut -c1-150
