# stop 47, device run 3 (an H200): the pipelines' tiles held in rotating register banks (rotate_rounds) against
# the library before it (*_old: `age` moved the held tiles one round older at each round's end), in turn:
# bench/scan_wide.cu ceiling and bench/pipe_trace.cu ceiling / pass50, every output checked; the SASS of the
# new kernels (probe.cubin), for where they spill.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
X=.device/extra
run() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
for i in 1 2; do
  run scan_old-$i 60 $X/scan_wide_old ceiling
  run scan_new-$i 60 $X/scan_wide ceiling
  run compact_old-$i 90 $X/pipe_trace_old ceiling
  run compact_new-$i 90 $X/pipe_trace ceiling
done
run pass50_old 60 $X/pipe_trace_old pass50
run pass50_new 60 $X/pipe_trace pass50
cuobjdump -sass $X/probe.cubin > $OUT/w/probe.sass 2>&1
grep -c -E 'STL|LDL' $OUT/w/probe.sass > $OUT/w/spills.txt
(cd $OUT && tar czf run3.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/spills.txt
for f in scan_old-1 scan_new-1 scan_old-2 scan_new-2 compact_old-1 compact_new-1 compact_old-2 compact_new-2 pass50_old pass50_new; do echo "== $f"; grep -v '^$' $OUT/w/$f.log | cut -c1-130; done
