# stop 49, device run 5 (an H200): the final library (run 4's build; later commits changed comments and docs only):
# the whole production suite, synchronous, and the README's main job (`sluice bench`).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w && tar xJmf .device/bins.tar.xz -C .device
S=.device/sluice
t() { local name=$1 limit=$2; shift 2; /usr/bin/time -f "$name %e s" timeout $limit "$@" > $OUT/w/$name.log 2>>$OUT/w/times.txt; echo "$name rc $?" >> $OUT/w/rc.txt; }
t production-sync 150 $S bench --device cuda --suite production --out $OUT/w/sync
t main-job 150 $S bench --out $OUT/w/main-job
rm -f $OUT/w/*/*.gp
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -4 $OUT/w/main-job.log
mkdir -p /tmp/keep && mv $OUT/w /tmp/keep/ && (cd /tmp/keep && tar czf $OUT/run5.tgz w)
