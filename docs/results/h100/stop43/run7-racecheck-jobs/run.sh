# stop 43, device run 7 (run 4's build): why racecheck over verify does not finish since stop 41 (runs 2 and 6;
# stop 40's passed in 71 s): verify of the pipelines forced on to 5000 elements, every eighth case, with one
# algorithm at a time (--jobs 1) and with verify's default (the host's cores); and the two tests of synchronous
# calls from several threads (their counts and sums through mapped host slots), each under racecheck
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --sample 8 --max-size 5000 --algo decoupled-lookback:pipelined=on"
/usr/bin/time -f "san racecheck jobs 1 %e s" timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --jobs 1 > $OUT/w/san-racecheck-jobs1.log 2>>$OUT/w/times.txt; echo "san racecheck jobs 1 rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "san racecheck slots %e s" timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 .device/sluice_tests --gtest_filter='gpu.synchronous_*' > $OUT/w/san-racecheck-slots.log 2>>$OUT/w/times.txt; echo "san racecheck slots rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "san racecheck default jobs %e s" timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V > $OUT/w/san-racecheck-jobs.log 2>>$OUT/w/times.txt; echo "san racecheck default jobs rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt; tail -n 7 $OUT/w/san-racecheck-*.log
