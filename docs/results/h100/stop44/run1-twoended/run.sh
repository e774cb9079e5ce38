# stop 44, device run 1 (branch study/two-ended-w2, prepared in stop 43, not yet run): pipe_trace twoended (built
# without the trace: .device/pipe_trace) and traceteo (built with -DSLUICE_PIPE_TRACE: .device/pipe_trace_traced):
# stop 42's two-ended staging again (C's runs at alternate ends of the staging buffer, so the copier waits for the
# last round's store only where the two overlap), now without spills (the look-back's 2 words a thread and the
# offset in shared memory: ptxas 128 registers, 0 bytes spilled for u32, flags and u64), against the default, in
# turn; and C writing through a cursor (alone and with two-ended staging); u32 by predicate at 10 / 50 / 90% kept twice,
# flags and u64 once. Build: SRC=<worktree of this branch> bash scripts/stage_pipe_trace.sh (on main since stop 43)
cd "$(dirname "$0")/../../../../.."
. scripts/device_prologue.sh
mkdir -p $OUT/w
gunzip -f .device/pipe_trace.gz .device/pipe_trace_traced.gz 2>/dev/null
/usr/bin/time -f "twoended %e s" timeout 240 .device/pipe_trace twoended > $OUT/w/twoended.log 2>>$OUT/w/times.txt; echo "twoended rc $?" >> $OUT/w/rc.txt
/usr/bin/time -f "traceteo %e s" timeout 120 .device/pipe_trace_traced traceteo > $OUT/w/trace.log 2>>$OUT/w/times.txt; echo "trace rc $?" >> $OUT/w/rc.txt
cat $OUT/gpu.txt $OUT/w/rc.txt $OUT/w/times.txt $OUT/w/twoended.log $OUT/w/trace.log
