# stop 43, device run 1 (branch study/ahead-asks, commit 831e487, prepared in stop 42): pipe_trace ahead (built
# without the trace: .device/pipe_trace) and traceahead (built with -DSLUICE_PIPE_TRACE: .device/pipe_trace_traced):
# the compact pipeline asking at each round's start for the next round's look-back counts (2 counts a thread),
# beside the default and 2 counts a thread alone; u32 by predicate at 10 / 50 / 90% kept, flags and u64 at 10 / 50%.
# Then, with main's build (HEAD 6d60bed), the scans at 2^28 again (stop 42's refactor of the pipelined scan, f99d691,
# not yet timed; 0.953 of the copy before it)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
gunzip -f .device/pipe_trace.gz .device/pipe_trace_traced.gz
S=.device/sluice
/usr/bin/time -f "ahead %e s" timeout 240 .device/pipe_trace ahead > $OUT/w/ahead.log 2>>$OUT/w/times.txt; echo "ahead rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "traceahead %e s" timeout 120 .device/pipe_trace_traced traceahead > $OUT/w/trace.log 2>>$OUT/w/times.txt; echo "trace rc $?" >> $OUT/w/rc.txt
for p in inclusive_scan exclusive_scan; do /usr/bin/time -f "production $p 2^28 %e s" timeout 60 $S bench --device cuda --suite production --n 2^28 --primitive $p --out $OUT/w/prod-$p > $OUT/w/bench-$p.log 2>>$OUT/w/times.txt; echo "bench $p rc $?" >> $OUT/w/rc.txt; done
(cd $OUT && tar czf run1.tgz w/prod-*)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/ahead.log $OUT/w/trace.log
grep -hE 'scan' $OUT/w/bench-*_scan.log | cut -c1-160
