# stop 52, device run 3 (an H200): this stop's library (the same binaries as run 2, whose A/B steps took its 600 s
# before its checks ran): the GPU tests (quick matrix, huge ones left out), verify --quick, the pipelines forced on,
# three sanitizers over the pipelines on 7 blocks, the full `verify --algo all`, and the README's main job.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r2.tar.xz -C .device
S=.device/sluice
pipeline_checks $S .device/sluice_tests > $W/checks.txt; keep
t verify-all 200 $S verify --device cuda --algo all; keep
t main-job 120 $S bench --out $W/main-job; keep
rm -f $W/*/*.gp
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
cat $W/checks.txt; tail -1 $W/verify-all.log; tail -4 $W/main-job.log
keep
