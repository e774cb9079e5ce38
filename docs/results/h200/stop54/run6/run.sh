# stop 54, device run 6: the review's host code (cluster_prefix.cuh: one cached shape per kernel and cluster size, one
# launch configuration) on the GPU: the tests of the cluster, the partitions, the synchronous counts, the capture and
# the float scans, verify --quick of decoupled-lookback (with cluster=off too), and the synchronous suite to 2^20.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54e.tar.xz -C .device  # sluice, sluice_tests, lib
S=.device/sluice T=.device/sluice_tests
SLUICE_TEST_QUICK=1 t tests 120 $T --gtest_brief=1 \
  --gtest_filter='gpu.small_inputs*:gpu.float_scans*:gpu.partitions_on_both*:gpu.synchronous_counts*:gpu.async_forms*:gpu.kept_lookback*:gpu.bad_param*'
t verify 60 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:cluster=off
t suite 60 $S bench --device cuda --suite production --max-size 2^20 --out $W/suite; rm -f $W/suite/*.gp $W/suite/*.png; keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
tail -4 $W/tests.log; tail -1 $W/verify.log
