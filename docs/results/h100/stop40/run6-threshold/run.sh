# stop 40, device run 6 (the build of runs 4-5): where the pipelined compact starts paying, by name beside the
# default and CUB, _async: compact_if and compact (flags) at 2^22, 2^23 and 2^24 (auto takes the pipeline from 2^24
# four-byte elements), and compact_if at 2^30 (run 5's sweep stopped at 2^29)
cd "$(dirname "$0")/../../../../.."
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
tar xzf .device/bins.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
S=.device/sluice
for p in compact_if compact; do for n in 2^22 2^23 2^24; do
  timeout 60 $S bench --device cuda --suite production --async --primitive $p --n $n --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo cub --out $OUT/w/$p-$n >> $OUT/w/bench-threshold.log 2>&1; echo "$p $n rc $?" >> $OUT/w/rc.txt
done; done
timeout 90 $S bench --device cuda --suite production --async --primitive compact_if --n 2^30 --out $OUT/w/compact_if-2p30 > $OUT/w/bench-2p30.log 2>&1; echo "2^30 rc $?" >> $OUT/w/rc.txt
(cd $OUT && tar czf run6.tgz w)
cat $OUT/w/rc.txt; grep -hE '^\[' $OUT/w/bench-threshold.log $OUT/w/bench-2p30.log | grep -v copy | cut -c12-150
