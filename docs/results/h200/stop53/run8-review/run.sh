# stop 53, device run 8: the code after the review (count_last_fits: host code, the same rule), built by the clean-clone
# CI run: the synchronous, partition and capture tests, and verify --quick.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p .device/fin && tar xJf .device/fin.tar.xz -C .device/fin
export LD_LIBRARY_PATH=$PWD/.device/fin/lib:$LD_LIBRARY_PATH
t tests 100 .device/fin/sluice_tests --gtest_brief=1 \
  --gtest_filter='gpu.synchronous*:gpu.partitions_on_both*:gpu.compactions_of_dense*:gpu.unordered_partitions*:gpu.async_forms*:gpu.large_partitions*'
t verify-quick 60 .device/fin/sluice verify --device cuda --quick
keep
cat $OUT/gpu.txt $W/rc.txt; tail -3 $W/tests.log; tail -1 $W/verify-quick.log
