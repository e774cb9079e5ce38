# stop 51, device run 1 (an H200): bench/pipe_trace.cu `stop51` (the library's pipeline shapes: compact_if u32 at 10 / 50
# / 90% kept, partition's pass at 10 / 90%, flags at 10 / 50%, u64 compact and pass; 2^28, u64 2^27) built three ways
# from HEAD c2849f2's headers, in turn, three times (the order reversed the second time): as they are (base); B's wide sum of the tile counts in 32 bits by
# one redux.sync (redux); and also A's barrier merged into B's, the newest count published after it (merge). Then
# each build's registers and spills (cuobjdump).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
D=.device/s51 && tar xJf .device/s51.tar.xz -C .device
in_turn 3 base=$D/pt_base redux=$D/pt_redux merge=$D/pt_merge -- stop51
for b in base redux merge; do cuobjdump --dump-resource-usage $D/pt_$b | grep -A1 pipelined_compact | grep -o "REG:[0-9]* STACK:[0-9]*" | sort | uniq -c | sed "s/^/$b /"; done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
for b in base redux merge; do for f in $W/$b-?.txt; do echo "$(basename $f .txt) $(awk '/of copy/ {printf "%s/%s/%s:%s ", $1, $2, $3, $(NF-2)} /failures/ {printf "%s", $0}' $f)"; done; done
tar czf $OUT/run1.tgz -C $(dirname $W) w
