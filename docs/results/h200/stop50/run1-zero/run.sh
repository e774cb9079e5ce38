# stop 50, device run 1: pipe_trace stop50 built without (pt_base) and with -DSLUICE_STUDY_OPAQUE_ZERO (pt_zero),
# in turn twice: the library's compact and partition pipelines with its own predicates at 2^28 u32 / 2^27 u64;
# 8-byte elements with the comparison chosen at run time (today), fixed per kernel, fixed and rotating. Then ncu's
# source counters of the u32 (fixed) and u64 (run-time) compact pipelines at 10% kept, and both binaries' SASS.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
tar xJmf .device/s50.tar.xz -C .device
B=.device/s50
for i in 1 2; do
  for v in base zero; do echo "== $v pass $i" >> $OUT/w/times.txt; /usr/bin/time -f "$v $i %e s" $B/pt_$v stop50 > $OUT/w/pt_$v-$i.txt 2>>$OUT/w/times.txt; done
done
prof() { name=$1; shift; /usr/bin/time -f "ncu $name %e s" timeout 200 ncu --set none --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --import-source no --kernel-name-base mangled -k regex:pipelined_compact --launch-skip 1 --launch-count 1 -o $OUT/w/$name "$@" > $OUT/w/ncu-$name.log 2>>$OUT/w/times.txt; echo "ncu $name rc $?" >> $OUT/w/rc.txt
  ncu -i $OUT/w/$name.ncu-rep --page source --csv --print-source sass > $OUT/w/$name-sass.csv 2>>$OUT/w/times.txt
  ncu -i $OUT/w/$name.ncu-rep --page details > $OUT/w/$name-details.txt 2>>$OUT/w/times.txt; rm -f $OUT/w/$name.ncu-rep; }
prof u32 $B/pt_base stop50ncu u32
prof u64 $B/pt_base stop50ncu u64
prof u32zero $B/pt_zero stop50ncu u32
gzip $OUT/w/*-sass.csv
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt
for f in $OUT/w/pt_*.txt; do echo "== $f"; cat $f; done
(cd $OUT && tar czf run1.tgz w && rm -rf w)
