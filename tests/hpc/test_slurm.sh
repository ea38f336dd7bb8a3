#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's cluster pipeline under a real Slurm scheduler (a one-node cluster started by
# tests/hpc/slurm_cluster.sh), with the job scripts of docs/slurm/ exactly as docs/HPC.md shows them:
#  - the array job (4 shards), then the merge-and-fit job (--dependency=afterok): the merged CSV and the
#    fitted header are byte-identical to the single-machine run of the same sweep and fit;
#  - each fault on one array task, resumed: scancel, scontrol requeue (Slurm restarts it), a time limit,
#    pre-emption (a job of a higher-priority partition requeues it), the node going down and coming back;
#    and srun --mpi=pmix with the MPI build, cancelled and resubmitted. After each, the merged CSV and the
#    fitted header equal the single-machine run byte for byte, the stopped run printed its "resume with"
#    line, and the journal says that no committed point was computed again: the second session started
#    exactly at the last commit of the first (the sidecar's session_starts), with the rhs_evals of an
#    uninterrupted run;
#  - srun -n 2 without --mpi, and the build without MPI under srun -n 2, are refused with one line.
# Every fault lands inside the run whatever the machine's speed (tests/cli/events.sh): the task holds
# after its first rows (IMPACTFIT_TEST_HOLD_AFTER) and the fault comes once its journal shows the commit;
# a restarted task has resumed past the hold and goes on. Every wait has a bound (EVENT_BOUND).
# usage: test_slurm.sh SOURCE_DIR path/to/impactfit [path/to/impactfit-mpi (an -DIMPACTFIT_MPI=ON build)]
# Exit 77 (SKIP) when Slurm is not installed or the cluster does not start; without the MPI build the
# MPI case says SKIP and the rest runs.
set -u
usage="usage: test_slurm.sh SOURCE_DIR IMPACTFIT [IMPACTFIT_MPI]"
SRC=$(cd "${1:?$usage}" && pwd)
CLI=${2:?$usage}
CLI_MPI=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$SRC/tests/cli/events.sh"
T=$(mktemp -d)
cleanup() {
  bash "$here/slurm_cluster.sh" stop "$T/cluster" >/dev/null 2>&1
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 143' TERM
fail=0
pass=0
ok() { pass=$((pass + 1)); }
ko() {
  echo "FAIL: $*"
  fail=$((fail + 1))
}

# a free pair of ports for the daemons
port=$((20000 + $$ % 20000))
while ss -ltn 2>/dev/null | grep -Eq ":($port|$((port + 1))) "; do port=$((port + 2)); done
SLURM_CLUSTER_OWNER=$$ SLURM_TEST_PORT=$port bash "$here/slurm_cluster.sh" start "$T/cluster"
rc=$?
[ $rc = 0 ] || exit $rc # 77: SKIP with its reason
export SLURM_CONF=$T/cluster/slurm.conf
host=$(hostname -s)
# impactfit on the PATH of the jobs (sbatch exports the environment): the serial build, or the MPI one
mkdir -p "$T/bin" "$T/bin-mpi"
ln -s "$(cd "$(dirname "$CLI")" && pwd)/$(basename "$CLI")" "$T/bin/impactfit"
[ -n "$CLI_MPI" ] && ln -s "$(cd "$(dirname "$CLI_MPI")" && pwd)/$(basename "$CLI_MPI")" "$T/bin-mpi/impactfit"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
unset IMPACTFIT_TEST_HOLD_AFTER
SCRIPTS=$SRC/docs/slurm
name=poursina2020

# a working directory as a user has it: the sweep and fit definitions of the repository
mk_case() {
  mkdir -p "$T/$1/sweeps" "$T/$1/fits"
  cp "$SRC/sweeps/$name.ini" "$T/$1/sweeps/"
  cp "$SRC/fits/$name.ini" "$T/$1/fits/"
}
# job_state JOB: Slurm's state of a job (of its one array task), "" when Slurm forgot it
job_state() { scontrol show job -o "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1; }
state_is() { # state_is JOB STATE...: the job is in one of these states
  local s j=$1
  s=$(job_state "$j")
  shift
  for w in "$@"; do [ "$s" = "$w" ] && return 0; done
  return 1
}
restarts() { scontrol show job -o "$1" 2>/dev/null | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p' | head -n 1; }
restarted() { [ "$(restarts "$1")" -ge 1 ] 2>/dev/null; }
# wait_job JOB WHAT STATE...: waits until the job is in one of the states (bounded)
wait_job() {
  local j=$1 what=$2
  shift 2
  wait_event 0 "$what (job $j: $(job_state "$j"))" state_is "$j" "$@"
}
# sbatch_in DIR ARGS...: submits from DIR, prints the job ID
sbatch_in() {
  local d=$1
  shift
  (cd "$T/$d" && sbatch --parsable "$@") | cut -d';' -f1
}
json_of() { sed -n "s/.*\"$2\": \(.*\),\$/\1/p" "$1" | head -n 1; }

phase() { echo "test_slurm: ${SECONDS}s: $*"; }
phase "cluster up"
# ---- the single machine: the README's sweep and fit ----
mk_case ref
(cd "$T/ref" && PATH=$T/bin:$PATH impactfit sweep "sweeps/$name.ini" --out out >/dev/null &&
  PATH=$T/bin:$PATH impactfit fit "fits/$name.ini" --data out >/dev/null) || ko "the single-machine run failed"
REF_CSV=$T/ref/out/$name.csv
REF_H=$T/ref/out/$name.h
[ -s "$REF_CSV" ] && [ -s "$REF_H" ] && ok || ko "no reference CSV and header"

# same_result DIR CSV HEADER: the CSV and the header equal the single machine's
same_result() {
  cmp -s "$2" "$REF_CSV" && ok || ko "$1: the CSV differs from the single-machine run"
  cmp -s "$3" "$REF_H" && ok || ko "$1: the fitted header differs from the single-machine run"
}

phase "single-machine reference done"
# ---- the pipeline: array -> merge -> fit, the scripts as docs/HPC.md shows them ----
mk_case array
A=$(PATH=$T/bin:$PATH sbatch_in array "$SCRIPTS/sweep-array.sbatch")
M=$(PATH=$T/bin:$PATH sbatch_in array --dependency=afterok:"$A" "$SCRIPTS/merge-fit.sbatch")
if wait_job "$M" "the merge-and-fit job" COMPLETED FAILED CANCELLED TIMEOUT && state_is "$M" COMPLETED; then
  same_result pipeline "$T/array/final/$name.csv" "$T/array/final/$name.h"
  n=$(ls "$T/array/results/$name".shard-*-of-4.csv 2>/dev/null | wc -l)
  [ "$n" = 4 ] && ok || ko "pipeline: $n of 4 shards"
else
  ko "pipeline: the merge-and-fit job ended $(job_state "$M")"
  cat "$T/array"/slurm-*.out 2>/dev/null | tail -n 5
fi
SHARD3=$name.shard-3-of-4
RHS3=$(json_of "$T/array/results/$SHARD3.json" rhs_evals)

phase "pipeline done"
# ---- faults on array task 3; the other 3 shards are those of the pipeline ----
# fault_case NAME: a working directory with the other 3 finished shards of the pipeline
fault_case() {
  mk_case "$1"
  mkdir -p "$T/$1/results"
  for f in "$T/array/results/$name".shard-*-of-4.*; do
    case $f in */$SHARD3.*) ;; *) cp "$f" "$T/$1/results/" ;; esac
  done
}
HOLD=1
# hold_task NAME [SBATCH OPTIONS]: submits task 3 with the hold (one CPU); prints the job ID. The task
# holds once its first block (3600 of its 15000 points) is committed; a signal then stops it after the
# block in flight, with blocks left to compute
hold_task() {
  local c=$1
  shift
  IMPACTFIT_TEST_HOLD_AFTER=$HOLD PATH=$T/bin:$PATH sbatch_in "$c" --array=3 --cpus-per-task=1 "$@" \
    "$SCRIPTS/sweep-array.sbatch"
}
journal_of() { echo "$T/$1/results/$SHARD3.journal"; }
held() { wait_event 0 "$1: the held task's commit" committed_at_least "$(journal_of "$1")" "$HOLD"; }
# after_fault NAME JOB: the stopped run said how to resume, and what its journal committed
declare -A committed
after_fault() {
  local c=$1 j=$2
  # the points the stopped run had made durable, as its message says (a requeued task may be running again)
  committed[$c]=$(sed -n 's/.*interrupted by SIGTERM after \([0-9]*\) of .*/\1/p' "$T/$c"/slurm-"$j"_3.out | head -n 1)
  grep -q "resume with: impactfit sweep sweeps/$name.ini --out results --resume --shard 3/4" "$T/$c"/slurm-"$j"_3.out &&
    ok || {
    ko "$c: no 'resume with' line from the stopped task"
    cat "$T/$c"/slurm-"$j"_3.out
  }
}
# resubmit NAME [JOB]: (submits task 3 again when JOB is not given: a cancelled or timed-out task), then
# the merge-and-fit job after it, as the docs say
declare -A mergejob
resubmit() {
  local c=$1 j=${2:-}
  [ -n "$j" ] || j=$(PATH=$T/bin:$PATH sbatch_in "$c" --array=3 "$SCRIPTS/sweep-array.sbatch")
  mergejob[$c]=$(PATH=$T/bin:$PATH sbatch_in "$c" --dependency=afterok:"$j" "$SCRIPTS/merge-fit.sbatch")
}
# check_case NAME: the result, and the second session began at the first one's last commit
check_case() {
  local c=$1 m=${mergejob[$1]}
  if ! { wait_job "$m" "$c: the merge-and-fit job" COMPLETED FAILED CANCELLED TIMEOUT && state_is "$m" COMPLETED; }; then
    ko "$c: the merge-and-fit job ended $(job_state "$m")"
    tail -n 5 "$T/$c"/slurm-*.out
    return
  fi
  same_result "$c" "$T/$c/final/$name.csv" "$T/$c/final/$name.h"
  local starts rhs
  starts=$(json_of "$T/$c/results/$SHARD3.json" session_starts)
  [ "$starts" = "[0, ${committed[$c]}]" ] && ok ||
    ko "$c: session_starts $starts, expected [0, ${committed[$c]}] (the first session's last commit)"
  rhs=$(json_of "$T/$c/results/$SHARD3.json" rhs_evals)
  [ "$rhs" = "$RHS3" ] && ok || ko "$c: rhs_evals $rhs, uninterrupted $RHS3"
}

for c in cancel requeue timelimit preempt; do fault_case $c; done
mk_case mpi
[ -n "$CLI_MPI" ] || echo "test_slurm: SKIP: the MPI case (no impactfit built with MPI was given)"
J_cancel=$(hold_task cancel)
J_requeue=$(hold_task requeue)
J_time=$(hold_task timelimit)
J_low=$(hold_task preempt -p low)
# without the MPI build, a job that holds the same CPUs, so that the pre-emption below takes the same ones
if [ -n "$CLI_MPI" ]; then
  J_mpi=$(IMPACTFIT_TEST_HOLD_AFTER=$HOLD PATH=$T/bin-mpi:$PATH sbatch_in mpi --nodes=1 --ntasks-per-node=2 \
    --cpus-per-task=1 "$SCRIPTS/sweep-mpi.sbatch")
else
  J_mpi=$(sbatch_in mpi --ntasks=2 --wrap 'while true; do sleep 1; done')
fi
all_held=1
for c in cancel requeue timelimit preempt; do held $c || all_held=0; done
[ -z "$CLI_MPI" ] || wait_event 0 "mpi: rank 0's commit" committed_at_least "$T/mpi/results/$name.journal" "$HOLD" ||
  all_held=0

if [ $all_held = 1 ]; then
  # pre-emption first, while every other holder runs: of the node's 16 CPUs the holders use 6 (1 each, the
  # MPI job 2 x 1), so the urgent job's 11 need the low task's one: it pre-empts (requeues) that task alone
  phase "every fault's task holds"
  U=$(sbatch_in preempt -p urgent --cpus-per-task=11 --wrap true)
  wait_event 0 "preempt: the low task requeued" restarted "$J_low" && ok || ko "preempt: the task was not pre-empted"
  wait_job "$U" "preempt: the urgent job" COMPLETED FAILED CANCELLED
  scancel "$J_cancel"
  scontrol requeue "$J_requeue"
  scontrol update JobId="$J_time" EndTime="$(date -d '+1 sec' +%FT%T)"
  scancel "$J_mpi"
  wait_job "$J_cancel" "cancel: the task's end" CANCELLED && after_fault cancel "$J_cancel"
  wait_job "$J_time" "timelimit: the task's end" TIMEOUT && after_fault timelimit "$J_time"
  wait_event 0 "requeue: the task restarted" restarted "$J_requeue" && after_fault requeue "$J_requeue"
  after_fault preempt "$J_low"
  phase "faults done"
  # the requeued and pre-empted tasks resume by themselves; the others are submitted again
  resubmit cancel
  resubmit timelimit
  resubmit requeue "$J_requeue"
  resubmit preempt "$J_low"
  # MPI: the cancelled run resumed by a new MPI job (srun --mpi=pmix), the fit on its CSV
  J2=""
  if [ -z "$CLI_MPI" ]; then
    :
  elif wait_job "$J_mpi" "mpi: the job's end" CANCELLED; then
    c_mpi=$(sed -n 's/.*interrupted by SIGTERM after \([0-9]*\) of .*/\1/p' "$T/mpi/slurm-$J_mpi.out" | head -n 1)
    grep -q "resume with:" "$T/mpi/slurm-$J_mpi.out" && ok || ko "mpi: no 'resume with' line"
    J2=$(PATH=$T/bin-mpi:$PATH sbatch_in mpi --nodes=1 --ntasks-per-node=2 --cpus-per-task=1 \
      "$SCRIPTS/sweep-mpi.sbatch")
  fi
  for c in cancel timelimit requeue preempt; do check_case $c; done
  if [ -z "$CLI_MPI" ]; then
    :
  elif [ -n "$J2" ] && wait_job "$J2" "mpi: the resumed job" COMPLETED FAILED CANCELLED TIMEOUT &&
    state_is "$J2" COMPLETED; then
    (cd "$T/mpi" && PATH=$T/bin:$PATH impactfit fit "fits/$name.ini" --data results >/dev/null)
    same_result mpi "$T/mpi/results/$name.csv" "$T/mpi/results/$name.h"
    [ "$(json_of "$T/mpi/results/$name.json" ranks)" = 2 ] && ok || ko "mpi: the resumed run had not 2 ranks"
    [ "$(json_of "$T/mpi/results/$name.json" session_starts)" = "[0, $c_mpi]" ] && ok ||
      ko "mpi: session_starts $(json_of "$T/mpi/results/$name.json" session_starts), expected [0, $c_mpi]"
  else
    ko "mpi: the resumed job ended ${J2:+$(job_state "$J2")}"
    tail -n 5 "$T/mpi"/slurm-*.out
  fi
else
  ko "not every held task committed its first rows"
fi

phase "faults resumed and checked (rows committed when each stopped: $(for c in "${!committed[@]}"; do printf '%s %s, ' "$c" "${committed[$c]}"; done))"
# ---- the node goes down under a running task and comes back: Slurm requeues the task ----
fault_case nodedown
J_node=$(hold_task nodedown)
node_up() { case $(sinfo -h -n "$host" -o %t 2>/dev/null) in idle* | mix* | alloc*) true ;; *) false ;; esac; }
if held nodedown; then
  scontrol update NodeName="$host" State=DOWN Reason=impactfit-test
  wait_event 0 "nodedown: the task requeued" restarted "$J_node"
  # the stopped run has said how to resume, so it has ended: only then does the node come back (on a
  # real cluster the process went with its node; here it finishes its block first, and a task restarted
  # before that would meet its live lock)
  wait_event 0 "nodedown: the stopped run's message" grep_quiet "interrupted by SIGTERM" "$T/nodedown/slurm-${J_node}_3.out"
  # back in service (ReturnToService=1: a node an administrator set DOWN stays down until then)
  scontrol update NodeName="$host" State=RESUME
  wait_event 0 "nodedown: the node back" node_up
  after_fault nodedown "$J_node"
  resubmit nodedown "$J_node"
  check_case nodedown
else
  ko "nodedown: the task did not commit"
fi

phase "node down done"
# ---- launches that cannot work are refused, in one line ----
if [ -n "$CLI_MPI" ]; then
  (cd "$T/ref" && PATH=$T/bin-mpi:$PATH timeout 300 srun --immediate=120 -n 2 impactfit sweep "sweeps/$name.ini" --out nompi >/dev/null 2>"$T/err1")
  [ $? != 0 ] && grep -q 'srun --mpi=pmix' "$T/err1" && [ "$(grep -c 'impactfit: error' "$T/err1")" = 1 ] && ok ||
    {
      ko "srun -n 2 without --mpi was not refused with one line"
      cat "$T/err1"
    }
fi
(cd "$T/ref" && PATH=$T/bin:$PATH timeout 300 srun --immediate=120 -n 2 impactfit sweep "sweeps/$name.ini" --out serial >/dev/null 2>"$T/err2")
[ $? != 0 ] && grep -q 'built without MPI' "$T/err2" && [ "$(grep -c 'impactfit: error' "$T/err2")" = 1 ] && ok ||
  {
    ko "the build without MPI under srun -n 2 was not refused with one line"
    cat "$T/err2"
  }

echo "test_slurm: $pass passed, $fail failed"
[ $fail = 0 ]
