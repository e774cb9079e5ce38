# stop 46, device run 8 (an H200): the compact pipeline's rounds traced on the H200 (bench/pipe_trace.cu final,
# built with -DSLUICE_PIPE_TRACE), and more buffers for compact_if and the partition pass (pipe_trace h200,
# built without), at 2^28 u32. Binaries from the build lines in the file's header, carried in .device/extra.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
X=.device/extra
/usr/bin/time -f "pipe_trace final (traced) %e s" timeout 200 $X/pipe_trace_traced final > $OUT/w/pipe_trace-final.log 2>>$OUT/w/times.txt; echo "final rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "pipe_trace h200 %e s" timeout 300 $X/pipe_trace h200 > $OUT/w/pipe_trace-h200.log 2>>$OUT/w/times.txt; echo "h200 rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run8.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
cat $OUT/w/pipe_trace-final.log | cut -c1-200 | head -60
cat $OUT/w/pipe_trace-h200.log | cut -c1-200
