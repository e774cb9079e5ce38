# stop 43, device run 8 (run 4's build): compute-sanitizer racecheck over verify of the pipelines forced on, one
# algorithm at a time (--jobs 1: run 7 found racecheck hangs where verify runs algorithms on several host threads at
# once), every case to 20000 elements: on the full grid, then on 7 blocks (several rounds a block)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --jobs 1 --max-size 20000"
/usr/bin/time -f "san racecheck full grid %e s" timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on > $OUT/w/san-racecheck-full.log 2>>$OUT/w/times.txt; echo "san racecheck full grid rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "san racecheck 7 blocks %e s" timeout 250 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on,blocks=7 > $OUT/w/san-racecheck-7.log 2>>$OUT/w/times.txt; echo "san racecheck 7 blocks rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -n 7 $OUT/w/san-racecheck-full.log $OUT/w/san-racecheck-7.log
