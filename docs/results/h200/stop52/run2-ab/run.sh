# stop 52, device run 2 (an H200): this stop's library (.device/sluice: the pipelined scan's buffers on 128-byte
# lines; the stable partition's synchronous count through a mapped host slot) against run 1's (.device/r1/sluice,
# 884d600's build), in turn: the synchronous partition and partition_if and the scans at every power of two; then
# this build's checks (GPU tests, verify --quick, the pipelines forced, three sanitizers), the full
# `verify --algo all`, and the README's main job.
# (Its A/B steps took the call's 600 s before the checks began: they ran in run 3.)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r2.tar.xz -C .device
S=.device/sluice
ab 2 "partition partition_if" old=.device/r1/sluice new=$S --; keep
ab 2 "inclusive_scan exclusive_scan" old=.device/r1/sluice new=$S --; keep
pipeline_checks $S .device/sluice_tests > $W/checks.txt; keep
t verify-all 200 $S verify --device cuda --algo all; keep
t main-job 150 $S bench --out $W/main-job; keep
rm -f $W/*/*.gp
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
cat $W/checks.txt; tail -1 $W/verify-all.log; tail -4 $W/main-job.log
ab_summary | cut -c1-400
keep
