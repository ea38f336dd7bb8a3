#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs a command with every CPU oversubscribed: one busy process per core (nproc, or LOAD_PROCS),
# started here and killed when the command ends, fails or is interrupted. The busy processes also
# end by themselves once this script is gone (a SIGKILL from ctest's timeout cannot be trapped), so
# none outlives the test. The ctest `load` runs the tests of the label `signals` (every test that
# interrupts, kills or races a process) this way: they must pass on a machine busy with other work.
# usage: under_load.sh COMMAND [ARGS...]    exit status: the command's
set -u
[ $# -ge 1 ] || { echo "usage: under_load.sh COMMAND [ARGS...]" >&2; exit 2; }
n=${LOAD_PROCS:-$(nproc)}
me=$$
busy=""
stop_busy() {
  for p in $busy; do kill -9 "$p" 2>/dev/null; done
  for p in $busy; do wait "$p" 2>/dev/null; done
  busy=""
}
trap stop_busy EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in $(seq "$n"); do
  # a pure CPU loop; every 200000 turns it checks that this script still runs
  (while kill -0 "$me" 2>/dev/null; do for ((i = 0; i < 200000; i++)); do :; done; done) &
  busy="$busy $!"
done
echo "under_load.sh: $n busy processes (one per core) while running: $*"
"$@"
rc=$?
stop_busy
echo "under_load.sh: exit status $rc"
exit $rc
