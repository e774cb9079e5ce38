# stop 42, device run 3: pipe_trace early (built without the trace): the compact pipeline with the next round's
# look-back counts asked for in B (early), with C's staging used from both ends (two-ended), and both, beside the
# default; u32 by predicate and with flags, u64 by predicate; 10 / 50 / 90% kept, 2^28 u32 / 2^27 u64
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
timeout 400 .device/pipe_trace early > $OUT/w/early.log 2>&1; echo "early rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/early.log
