# stop 45, device run 4 (HEAD 5a4296b's library; the binaries packed in .device/hp.tar.gz, built here):
# - bench/sync_large.cu: the synchronous compact_if at 2^28 against its `_async` form, the host's wait and the
#   count's copy apart, CUB alike (the suite's synchronous rows took 10-21 us more than the `_async` ones);
# - bench/host_path.cu: a small reduce_async's host time layer by layer, and one call between events of
#   sluice, CUB and the layers beneath sluice's call, in turn (2^12 stays 1.03-1.15x CUB's time), twice.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
tar xzf .device/hp.tar.gz -C .device
export LD_LIBRARY_PATH=$PWD/.device/lib:$LD_LIBRARY_PATH
timeout 120 .device/sync_large > $OUT/w/sync_large.log 2>&1; echo "sync_large rc $?" >> $OUT/w/rc.txt
for i in 1 2; do timeout 60 .device/host_path > $OUT/w/host_path-$i.log 2>&1; echo "host_path $i rc $?" >> $OUT/w/rc.txt; done
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/sync_large.log; grep -h "one call" $OUT/w/host_path-*.log
