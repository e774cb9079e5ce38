# stop 48, device run 5 (an H200): bench/pipe_trace.cu shapes48 (built without the trace, from this stop's
# headers): with the held tiles in rotating register banks, the 4-byte shapes that fit: the compact by predicate
# at 8 vectors with a lag of one round, at 8 vectors with a lag of two (16 bytes spilled), at 7 vectors with a
# third buffer (8 bytes spilled), partition's pass at 8 vectors with a lag of one and at 6 with a third buffer,
# each beside the default, twice.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
/usr/bin/time -f "shapes48 %e s" timeout 400 .device/pipe_trace shapes48 > $OUT/w/pipe_trace-shapes48.log 2>>$OUT/w/times.txt; echo "rc $?" >> $OUT/w/times.txt
cat $OUT/gpu.txt $OUT/w/times.txt; cat $OUT/w/pipe_trace-shapes48.log | cut -c1-160
