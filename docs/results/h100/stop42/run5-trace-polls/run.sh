# stop 42, device run 5: pipe_trace tracedirect (built with -DSLUICE_PIPE_TRACE): the default compact pipeline, early
# asks and direct stores, traced at 10 / 50% kept (u32 by predicate), with thread 0's re-reads of look-back words
# not yet published counted per round
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
timeout 300 .device/pipe_trace_traced tracedirect > $OUT/w/trace.log 2>&1; echo "trace rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/trace.log
