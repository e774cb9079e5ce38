# stop 33, device run 7: compute-sanitizer over the pipelined paths (verify --quick, up to 20000 elements)
cd "$(dirname "$0")/../../../../.."
S=.device/sluice
V="verify --device cuda --quick --max-size 20000 --algo decoupled-lookback:pipelined=on --algo decoupled-lookback:pipelined=on,blocks=7"
for t in memcheck synccheck racecheck; do /usr/bin/time -f "$t %e s" timeout 200 compute-sanitizer --tool $t --error-exitcode 9 $S $V > $OUT/san-$t.log 2>>$OUT/times.txt; echo "san $t rc $?" >> $OUT/rc.txt; done
cat $OUT/rc.txt $OUT/times.txt; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|passed, " $OUT/san-*.log
