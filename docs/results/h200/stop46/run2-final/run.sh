# stop 46, device run 2 (an H200: the device tool lent no H100 this session): the final library (HEAD; its
# kernels as of stop 45's commit 4675ec9) under racecheck and synccheck over verify of reduce's default (one
# algorithm at a time, to 70000 elements), the full verify (`--algo all`), and the README's main job (`sluice
# bench` with no arguments but --out).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
for tool in racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $S verify --device cuda --quick --jobs 1 --algo vectorized --max-size 70000 > $OUT/w/san-$tool-reduce.log 2>&1; echo "$tool reduce rc $?" >> $OUT/w/rc.txt
done
/usr/bin/time -f "verify all %e s" timeout 300 $S verify --device cuda --algo all > $OUT/w/verify-all.log 2>>$OUT/w/times.txt; echo "verify all rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "main job %e s" timeout 200 $S bench --out $OUT/w/main-job > $OUT/w/main-job.log 2>>$OUT/w/times.txt; echo "main job rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run2.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in $OUT/w/san-*.log; do echo "$f: $(grep -E 'SUMMARY|passed' $f | tail -2 | tr '\n' ' ')"; done
tail -3 $OUT/w/verify-all.log; tail -25 $OUT/w/main-job.log
