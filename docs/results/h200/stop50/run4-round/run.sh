# stop 50, device run 4 (an H200): pipe_trace stop50u32 built three ways from HEAD 6c9b1bf's headers with the study
# macros: none (pt_base), -DSLUICE_STUDY_SCAN8 (B's scan of the 8 warps' counts over a logical warp of 8 lanes: 3
# shuffle steps, not 5) and -DSLUICE_STUDY_KEEPIF (A's keep bits set under the test's predicate: `if (kept) keep |=
# 1 << e` instead of `keep |= kept << e`), in turn twice: u32 compact_if 10/50/90%, partition's pass 10/90%, compact
# with flags 10%, at 2^28, each case twice a binary. Then each binary's SASS: instructions per kernel, and the u32
# compact_if pipeline (comparison less) in full.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
W=$(mktemp -d)/w && mkdir -p $W && tar xJmf .device/s50c.tar.xz -C .device
B=.device/s50c
for i in 1 2; do
  for v in base scan8 keepif; do /usr/bin/time -f "$v $i %e s" $B/pt_$v stop50u32 > $W/pt_$v-$i.txt 2>>$W/times.txt; done
done
for v in base scan8 keepif; do
  cuobjdump -sass $B/pt_$v > $W/all.sass 2>>$W/times.txt
  awk '/Function :/ {f=$3} /^ *\/\*[0-9a-f]{4,}\*\// {n[f]++} END {for (k in n) print n[k], k}' $W/all.sass | sort -k2 > $W/counts-$v.txt
  awk -v want='pipelined_compact_kernelIjNS_6detail11pred_selectINS1_15fixed_thresholdIjLNS_7compareE0EEEEENS0_8lookback6tuningENS1_8pipelineIjLb0ELj7ELj2ELj2ELj2ELj1ELb1ELb1ELb1EEELNS1_4modeE0E' '/Function :/ {p = index($3, want) > 0} p' $W/all.sass > $W/compact-u32-$v.sass
  rm -f $W/all.sass
done
gzip $W/*.sass
cat $OUT/gpu.txt $W/times.txt; wc -l $W/counts-*.txt; zcat $W/compact-u32-base.sass.gz | head -3
grep pipelined_compact $W/counts-base.txt | head -3
for f in $W/pt_*.txt; do echo "== $(basename $f)"; cat $f; done
(cd $W/.. && tar czf $OUT/run4.tgz w)
