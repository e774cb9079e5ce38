# stop 54, device run 7: the second review's host code (common.cuh: once_per_device, the one per-device cache behind
# resident_blocks_per_sm and cluster::shape_of; cluster::parse; the kernels byte for byte as run 6's) on the GPU: the
# same tests, verify and suite as run 6.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r54f.tar.xz -C .device  # sluice, sluice_tests, lib
S=.device/sluice T=.device/sluice_tests
SLUICE_TEST_QUICK=1 t tests 120 $T --gtest_brief=1 \
  --gtest_filter='gpu.small_inputs*:gpu.float_scans*:gpu.partitions_on_both*:gpu.synchronous_counts*:gpu.async_forms*:gpu.kept_lookback*:gpu.bad_param*:gpu.large_scans*:gpu.large_compactions*'
t verify 60 $S verify --device cuda --quick --algo decoupled-lookback --algo decoupled-lookback:cluster=off
t suite 60 $S bench --device cuda --suite production --max-size 2^20 --out $W/suite; rm -f $W/suite/*.gp $W/suite/*.png; keep
cat $OUT/gpu.txt $W/rc.txt $W/times.txt | grep -v " rc 0"
tail -4 $W/tests.log; tail -1 $W/verify.log
# As it ran, the binaries linked libtbb.so.12 (the clean-clone CI run before it had installed TBB on this machine),
# which the device lacks: verify and the suite did not start (rc 127). A second call on the same machine, with
# .device/tbb/libtbb.so.12 carried, ran them:
#   LD_LIBRARY_PATH=$PWD/.device/tbb:$PWD/.device/lib .device/sluice verify --device cuda --quick \
#     --algo decoupled-lookback --algo decoupled-lookback:cluster=off       -> 10856 passed, 0 failed
#   .device/sluice bench --device cuda --suite production --max-size 2^16   -> 175 rows, no error
