# stop 53, device run 7: run 6 found a pipelined compact kernel (u64) whose SASS differs between 52de7bd's build (old)
# and this stop's (new), the pipelines' variables now located by dynamic_shared_after (registers, stack and shared
# memory equal in all 54 pipeline kernels; the scan's pipeline identical): the SASS of the u64 pipelined compact
# kernels compared without addresses, and compact / compact_if at 2^28 (u64 and b128 at 2^27), _async, in turn, twice.
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
tar xJf .device/r53.tar.xz -C .device
S=.device/sluice
for f in $(cuobjdump -res-usage .device/old/sluice 2>/dev/null | grep -o "_Z[^ :]*pipelined_compact_kernelIm[^ :]*"); do
  for b in old=.device/old/sluice new=$S; do
    cuobjdump -sass -fun "$f" ${b#*=} 2>&1 | grep -E "^ +/\*[0-9a-f]+\*/" | sed -E 's,/\*[0-9a-f]+\*/,,; s,/\* 0x[0-9a-f]+ \*/,,; /BRA|BSSY|CALL|JMP|BREAK|BRX/ s,0x[0-9a-f]+,ADDR,g' > $W/sass-${b%%=*}.txt
  done
  echo "$(wc -l < $W/sass-old.txt) / $(wc -l < $W/sass-new.txt) instructions, $(diff $W/sass-old.txt $W/sass-new.txt | grep -c '^[<>]') lines differ: $f" >> $W/sass-diff.txt
  [ -s $W/first-diff.txt ] || diff $W/sass-old.txt $W/sass-new.txt | head -60 > $W/first-diff.txt
done
rm -f $W/sass-old.txt $W/sass-new.txt; keep
ab_n 2 "compact compact_if" "268435456" old=.device/old/sluice new=$S -- --async; keep
cat $OUT/gpu.txt $W/rc.txt | grep -v " rc 0"
cut -c1-150 $W/sass-diff.txt; head -30 $W/first-diff.txt
