# stop 47, device run 1 (an H200): what the pipelines' shapes can move without their look-back's loads, and what
# a pipeline of bulk copies alone moves. bench/bulk_copy_ceiling.cu (no argument); bench/scan_wide.cu ceiling and
# bench/pipe_trace.cu ceiling, each built twice: as is, and with -DSLUICE_SCAN_STUDY_SKIP_LOOKBACK /
# -DSLUICE_COMPACT_STUDY_SKIP_LOOKBACK (*_nolb: B reads no aggregates or counts; outputs wrong, not checked).
# Binaries from the build lines in the files' headers, carried in .device/extra.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
X=.device/extra
run() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
run bulk_copy_ceiling 120 $X/bulk_copy_ceiling
run scan_wide-ceiling 120 $X/scan_wide ceiling
run scan_wide_nolb-ceiling 60 $X/scan_wide_nolb ceiling
run pipe_trace-ceiling 200 $X/pipe_trace ceiling
run pipe_trace_nolb-ceiling 100 $X/pipe_trace_nolb ceiling
run scan_wide-ceiling2 120 $X/scan_wide ceiling
(cd $OUT && tar czf run1.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in scan_wide-ceiling scan_wide_nolb-ceiling pipe_trace-ceiling pipe_trace_nolb-ceiling scan_wide-ceiling2 bulk_copy_ceiling; do echo "== $f"; cut -c1-160 $OUT/w/$f.log; done
