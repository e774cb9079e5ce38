# stop 33, device run 8: compact_if (the new pipeline from 2^24) beside CUB at every power of two, and flagged compact: the phased default, pipelined=on and CUB
cd "$(dirname "$0")/../../../../.."
S=.device/sluice
timeout 270 $S bench --device cuda --suite production --primitive compact_if --out $OUT/ci > $OUT/bench-compact_if.log 2>&1; echo "compact_if rc $?" >> $OUT/rc.txt
timeout 270 $S bench --device cuda --suite production --primitive compact --algo decoupled-lookback --algo decoupled-lookback:pipelined=on --algo cub --out $OUT/cf > $OUT/bench-compact-flags.log 2>&1; echo "compact rc $?" >> $OUT/rc.txt
(cd $OUT && tar czf csv.tgz ci/*.csv cf/*.csv && rm -rf ci cf)
cat $OUT/rc.txt; grep -c "" $OUT/bench-*.log
