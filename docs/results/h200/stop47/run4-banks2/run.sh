# stop 47, device run 4 (an H200): run 3 again with the held ranks packed right after A (no spills in any of the
# library's pipelines): bench/pipe_trace.cu banks (u32 and u64 compact by predicate, u32 flags, the partition
# pass at 90% kept) and bench/scan_wide.cu ceiling, the library before (*_old) and after, in turn, outputs checked.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xzf .device/extra.tar.gz -C .device
mkdir -p $OUT/w
X=.device/extra
run() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
for i in 1 2; do
  run banks_old-$i 120 $X/pipe_trace_old banks
  run banks_new-$i 120 $X/pipe_trace banks
  run scan_old-$i 60 $X/scan_wide_old ceiling
  run scan_new-$i 60 $X/scan_wide ceiling
done
(cd $OUT && tar czf run4.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in banks_old-1 banks_new-1 banks_old-2 banks_new-2 scan_old-1 scan_new-1 scan_old-2 scan_new-2; do echo "== $f"; grep -v '^$' $OUT/w/$f.log | grep -v '3s lag' | cut -c1-130; done
