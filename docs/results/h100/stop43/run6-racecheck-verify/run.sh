# stop 43, device run 6 (run 4's build): compute-sanitizer racecheck over verify of the pipelines forced on, which
# run 5 started beside device_check.sh while that unpacked the binaries again (it failed before its first CUDA
# call): on the full grid to 20000 elements, every fourth case, and on 7 blocks (several rounds a block) to 5000,
# every fourth case, side by side (racecheck's work is mostly the host's)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --sample 4"
(/usr/bin/time -f "san racecheck full grid %e s" timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on --max-size 20000 > $OUT/w/san-racecheck-full.log 2>>$OUT/w/times.txt; echo "san racecheck full grid rc $?" >> $OUT/w/rc.txt) &
(/usr/bin/time -f "san racecheck 7 blocks %e s" timeout 330 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --algo decoupled-lookback:pipelined=on,blocks=7 --max-size 5000 > $OUT/w/san-racecheck-7.log 2>>$OUT/w/times.txt; echo "san racecheck 7 blocks rc $?" >> $OUT/w/rc.txt) &
wait
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -n 7 $OUT/w/san-racecheck-full.log $OUT/w/san-racecheck-7.log
