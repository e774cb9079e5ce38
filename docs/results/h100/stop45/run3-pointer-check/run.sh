# stop 45, device run 3: the pointer checks through the driver's cuPointerGetAttribute (device memory; the
# runtime's full answer otherwise). bench/host_path.cu (built beside the library, packed in .device/hp.tar.gz):
# the host's time a layer of a small reduce_async, and one call between events beside CUB, twice; the GPU
# tests (every public call checks its pointers); the whole `_async` production suite (issue 8's figures).
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
tar xzf .device/hp.tar.gz -C .device
S=.device/sluice
for i in 1 2; do .device/host_path > $OUT/w/host_path-$i.log 2>&1; echo "host_path $i rc $?" >> $OUT/w/rc.txt; done
(SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 240 .device/sluice_tests --gtest_filter='-gpu.huge*' > $OUT/w/tests.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt)
/usr/bin/time -f "production async %e s" timeout 300 $S bench --device cuda --suite production --async --out $OUT/w/prod-async > $OUT/w/bench-production-cuda-async.log 2>>$OUT/w/times.txt; echo "bench async rc $?" >> $OUT/w/rc.txt
gzip $OUT/w/tests.log
(cd $OUT && tar czf run3.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; zcat $OUT/w/tests.log.gz | tail -3
grep -h "check_device\|reduce_async\|DeviceReduce\|one call" $OUT/w/host_path-*.log
grep -h "n=268435456 \|n=134217728 " $OUT/w/bench-*.log | grep -v "cudaMemcpy" | cut -c12-150 | head -40
