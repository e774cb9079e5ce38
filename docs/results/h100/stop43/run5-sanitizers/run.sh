# stop 43, device run 5 (run 4's build: the wide look-backs read 2 words a thread): compute-sanitizer racecheck over the pipelines, two ways side by side
# (racecheck's work is mostly the host's: run 2's one process over verify ran out of 280 s): the GPU tests of the
# pipelined paths under SLUICE_TEST_SANITIZE=1 (smaller inputs, the pipeline on 7 blocks so that each takes several
# rounds), dealt to 5 processes (scripts/device_check.sh sanitize-tests), and verify of the pipelines forced on (full
# grid) to 20000 elements, every second case; then memcheck and synccheck over that verify to 100000 elements
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
S=.device/sluice
V="verify --device cuda --quick --algo decoupled-lookback:pipelined=on"
(/usr/bin/time -f "san racecheck verify %e s" timeout 400 compute-sanitizer --tool racecheck --error-exitcode 9 $S $V --max-size 20000 --sample 2 > $OUT/w/san-racecheck-verify.log 2>>$OUT/w/times.txt; echo "san racecheck verify rc $?" >> $OUT/w/rc.txt) &
(SANITIZE_TOOLS=racecheck SANITIZE_JOBS=5 SANITIZE_TIMEOUT=400 SANITIZE_TESTS='gpu.large_*:gpu.unordered_partitions_*:gpu.partitions_on_both_sides*' BIN=.device OUT=$OUT/w /usr/bin/time -f "san racecheck tests %e s" bash scripts/device_check.sh sanitize-tests > $OUT/w/sanitize-tests.txt 2>>$OUT/w/times.txt; echo "san racecheck tests rc $?" >> $OUT/w/rc.txt)
wait
for t in memcheck synccheck; do /usr/bin/time -f "san $t %e s" timeout 80 compute-sanitizer --tool $t --error-exitcode 9 $S $V --max-size 100000 > $OUT/w/san-$t.log 2>>$OUT/w/times.txt; echo "san $t rc $?" >> $OUT/w/rc.txt; done
(cd $OUT && tar czf run5.tgz w)
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/sanitize-tests.txt; grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $OUT/w/san-*.log; tail -6 $OUT/w/san-racecheck-verify.log
