# stop 41, device run 8 (the build of run 5): bench/sync_tail.cu, where a synchronous reduce's time goes after its
# kernel (the API's form, reduce_async with each way to bring the sum to the host, the sum written into mapped
# host memory, CUB + cudaMemcpy), u32 at 2^10 .. 2^24, every result checked
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
timeout 200 .device/sync_tail > $OUT/sync-tail.log 2>&1; echo "sync_tail rc $?" >> $OUT/sync-tail.log
cat $OUT/gpu.txt $OUT/sync-tail.log
