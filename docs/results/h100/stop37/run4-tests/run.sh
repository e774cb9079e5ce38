# stop 37, device run 4: the whole GPU test suite (quick sizes) on the final code, the unordered partition's
# test at 2^22 + 4097 (run 3's suite, with it at 2^24 + 4097, ran past its 240 s limit with no failure)
cd "$(dirname "$0")/../../../../.."
mkdir -p $OUT/w
nvidia-smi --query-gpu=name,memory.total --format=csv > $OUT/w/gpu.txt
SLUICE_TEST_QUICK=1 /usr/bin/time -f "tests %e s" timeout 420 .device/sluice_tests > $OUT/w/tests-quick.log 2>>$OUT/w/times.txt; echo "tests rc $?" >> $OUT/w/rc.txt
cat $OUT/w/rc.txt $OUT/w/times.txt; tail -4 $OUT/w/tests-quick.log; grep "FAILED" $OUT/w/tests-quick.log | head
grep -E "^\[       OK \]" $OUT/w/tests-quick.log | sed -E 's/.*OK \] (.*) \(([0-9]+) ms\)/\2 \1/' | sort -rn | head -8
gzip $OUT/w/tests-quick.log
