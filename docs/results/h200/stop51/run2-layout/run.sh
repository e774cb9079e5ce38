# stop 51, device run 2 (an H200): why run 1's `redux` lost 8-9%. bench/pipe_trace.cu `stop51`, in turn, twice (the
# order reversed the second time): base (HEAD c2849f2's headers); x32 (the tile counts summed in 32 bits by 32-bit
# shuffles, wide_sums 32-bit as in redux: the block's static shared memory 32 bytes smaller); r64 (redux's one
# redux.sync, wide_sums left 64-bit: the static shared memory as base's). Then each build's resource usage and the
# SASS of base and redux (cuobjdump).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
D=.device/s51 && tar xJf .device/s51.tar.xz -C .device
in_turn 2 base=$D/pt_base x32=$D/pt_x32 r64=$D/pt_r64 -- stop51
for b in base redux x32 r64; do cuobjdump --dump-resource-usage $D/pt_$b | grep -A1 pipelined_compact | grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]*" | sort | uniq -c | sed "s/^/$b /"; done
for b in base redux; do cuobjdump -sass $D/pt_$b | gzip > $W/sass-$b.txt.gz; done
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
for b in base x32 r64; do for f in $W/$b-?.txt; do echo "$(basename $f .txt) $(awk '/of copy/ {printf "%s/%s/%s:%s ", $1, $2, $3, $(NF-2)} /failures/ {printf "%s", $0}' $f)"; done; done
tar czf $OUT/run2.tgz -C $(dirname $W) w
