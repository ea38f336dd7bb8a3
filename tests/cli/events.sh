# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the CLI tests that interrupt, kill or race a run (test_grid.sh, test_hpc.sh,
# test_reproduce.sh, test_mpi.sh): they never wait a fixed time. A run is started with the test hook
# IMPACTFIT_TEST_HOLD_AFTER=N (src/tools/progress.h: it stops once its first N points, or topics, are
# out and waits there for a signal), the test waits for an event the run shows (rows in its output, a
# commit line in its journal, a line on stderr) and only then sends the signal. Every wait has a bound
# (EVENT_BOUND seconds, default 300) after which it fails with a message naming the event, instead of
# hanging until ctest's timeout; the bound is generous because a loaded machine may be many times
# slower than an idle one, and it is never reached by a run that works.
EVENT_BOUND=${EVENT_BOUND:-300}

# wait_event PID WHAT COMMAND...: runs COMMAND every 20 ms until it succeeds (returns 0). Returns 1,
# printing "FAIL: ...", when process PID has ended first (0 for PID: no such check) or after
# EVENT_BOUND seconds.
wait_event() {
  local pid=$1 what=$2 end=$((SECONDS + EVENT_BOUND))
  shift 2
  until "$@"; do
    if [ "$pid" != 0 ] && ! kill -0 "$pid" 2>/dev/null; then
      "$@" && return 0 # the event came just before the end
      echo "FAIL: the run (pid $pid) ended before $what"
      return 1
    fi
    if [ $SECONDS -ge $end ]; then
      echo "FAIL: no $what within $EVENT_BOUND s (EVENT_BOUND)"
      return 1
    fi
    sleep 0.02
  done
}

# lines_at_least FILE N: FILE has at least N complete lines.
lines_at_least() { [ -f "$1" ] && [ "$(grep -c '' "$1")" -ge "$2" ]; }

# last_commit JOURNAL: NEXT of the last complete commit record of a sweep journal ("commit NEXT BYTES
# ROWS ...": the point where a resume starts; the points before it are durable), 0 when none. A last
# line without its newline is a record being written or a torn one, and does not count.
last_commit() {
  local next=""
  if [ -f "$1" ]; then
    if [ -n "$(tail -c 1 "$1")" ]; then
      next=$(sed '$d' "$1" | grep -a '^commit ' | tail -n 1 | cut -d' ' -f2)
    else
      next=$(grep -a '^commit ' "$1" | tail -n 1 | cut -d' ' -f2)
    fi
  fi
  echo "${next:-0}"
}

# committed_at_least JOURNAL N: the journal's last complete commit record makes the points before N
# durable.
committed_at_least() { [ "$(last_commit "$1")" -ge "$2" ]; }

# grep_quiet PATTERN FILE: FILE holds a line matching PATTERN (extended regular expression).
grep_quiet() { grep -Eaq -- "$1" "$2" 2>/dev/null; }

# stop_run PID: the end of a run the test gave up on (a failed wait): SIGKILL and reap it.
stop_run() {
  { kill -9 "$1" && wait "$1"; } 2>/dev/null # the braces also silence bash's "Killed" notice
}
