# stop 42, device run 4: pipe_trace direct (built without the trace): C of a sparse tile stores its kept elements
# from registers straight to out (no staging buffer, proxy fence or barrier), for every tile or for tiles with at
# most 1/4 kept, with and without early asks; u32 by predicate at 10 / 50 / 90% kept, flags and u64 at 10 / 50%
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
timeout 400 .device/pipe_trace direct > $OUT/w/direct.log 2>&1; echo "direct rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/direct.log
