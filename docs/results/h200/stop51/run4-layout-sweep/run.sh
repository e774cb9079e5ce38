# stop 51, device run 4 (an H200): where the compact pipelines' buffers fall in shared memory, swept. pt_lay is
# bench/pipe_trace.cu `layout` built with -DSLUICE_COMPACT_STUDY_LAYOUT from run 3's a1 headers (the dynamic base
# aligned up to a 128-byte line, each buffer's stride whole lines), where the first buffer starts `first` bytes past
# the line and `gap` more bytes follow each buffer (the staging buffer after them): first 0-112, gap 0/16/32/64/96;
# u32 compact_if at 10 / 50 / 90% kept and flags at 10%, 2^28 (first 112 gap 16 places the buffers as HEAD's build
# does). Beside it HEAD's build once (pt_base stop51).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
D=.device/s51 && tar xJf .device/s51.tar.xz -C .device
t base 120 $D/pt_base stop51
t layout 300 $D/pt_lay layout
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
awk '/of copy/ {printf "%s/%s/%s:%s ", $1, $2, $3, $(NF-2)} /failures/ {print}' $W/base.log
awk '/^layout/ {printf "\n%s %s ", $3, $5} /of copy/ {printf "%s ", $(NF-2)} /FAILED|failures/ {print; print ""}' $W/layout.log
tar czf $OUT/run4.tgz -C $(dirname $W) w
