# stop 49, device run 3 (an H200): where compact_if's pipeline spends its instructions at 10% kept. ncu's source
# counters (executed instructions and warp stalls per SASS instruction) of one launch (the second) of the
# compact's pipeline in compact_if's production rows at 2^28 (the first rows: u32 at 10% kept), exported per
# instruction as CSV; the same for partition_unordered_if's pass.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
prof() { name=$1; shift; /usr/bin/time -f "ncu $name %e s" timeout 200 ncu --set none --section SourceCounters --section InstructionStats --section WarpStateStats --import-source no -k regex:pipelined_compact --launch-skip 1 --launch-count 1 -o $OUT/w/$name "$@" > $OUT/w/ncu-$name.log 2>>$OUT/w/times.txt; echo "ncu $name rc $?" >> $OUT/w/rc.txt
  ncu -i $OUT/w/$name.ncu-rep --page source --csv --print-source sass > $OUT/w/$name-sass.csv 2>>$OUT/w/times.txt
  ncu -i $OUT/w/$name.ncu-rep --page details > $OUT/w/$name-details.txt 2>>$OUT/w/times.txt; }
prof compact_if $S bench --device cuda --suite production --async --primitive compact_if --n 2^28 --out $OUT/w/b1
prof partition_unordered_if $S bench --device cuda --suite production --async --primitive partition_unordered_if --n 2^28 --out $OUT/w/b2
rm -rf $OUT/w/b1 $OUT/w/b2
gzip $OUT/w/*-sass.csv
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; ls -la $OUT/w
zcat $OUT/w/compact_if-sass.csv.gz | head -c 600
(cd $OUT && tar czf run3.tgz w && rm -rf w)
