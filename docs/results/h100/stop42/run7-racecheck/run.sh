# stop 42, device run 7 (run 6's build): compute-sanitizer racecheck over the pipelines forced on, on 7 blocks (many
# rounds per block), to 20000 elements (run 6's racecheck over two settings ran out of its 90 s)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --algo decoupled-lookback:pipelined=on,blocks=7 --max-size 20000"
/usr/bin/time -f "san racecheck %e s" timeout 170 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V > $OUT/w/san-racecheck.log 2>>$OUT/w/times.txt; echo "san racecheck rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -8 $OUT/w/san-racecheck.log
