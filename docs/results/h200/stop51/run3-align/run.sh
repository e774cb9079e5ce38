# stop 51, device run 3 (an H200): run 2 showed the pipelines' speed hangs on where their dynamic shared memory falls
# (the static part 32 bytes smaller: 8-9% slower). bench/pipe_trace.cu `stop51`, in turn, twice (the order reversed
# the second time): base (HEAD c2849f2's headers); a1 (every buffer at a 128-byte line: the dynamic base aligned up
# to one, the buffers' stride whole lines); a2 (a1, and the compact's two-ended staging at the output's 128-byte
# phase, so the bulk store's shared and global addresses agree mod 128); a3 (a2, and B's tile counts summed in 32
# bits by one redux.sync).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
D=.device/s51 && tar xJf .device/s51.tar.xz -C .device
in_turn 2 base=$D/pt_base a1=$D/pt_a1 a2=$D/pt_a2 a3=$D/pt_a3 -- stop51
for b in base a1 a2 a3; do cuobjdump --dump-resource-usage $D/pt_$b | grep -A1 pipelined_compact | grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" | sort | uniq -c | sed "s/^/$b /" | sort -k2 -n | tail -4; done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
for b in base a1 a2 a3; do for f in $W/$b-?.txt; do echo "$(basename $f .txt) $(awk '/of copy/ {printf "%s/%s/%s:%s ", $1, $2, $3, $(NF-2)} /failures/ {printf "%s", $0}' $f)"; done; done
tar czf $OUT/run3.tgz -C $(dirname $W) w
