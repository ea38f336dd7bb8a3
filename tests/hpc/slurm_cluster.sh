#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A one-node Slurm cluster for the scheduler test (tests/hpc/test_slurm.sh), as plain background
# processes with all their state under one folder: munged, slurmctld and slurmd (Debian 12's slurm-wlm
# 22.05 and munge; `bash scripts/deps.sh slurm`), started as the user who runs the test (root in CI).
#   slurm_cluster.sh start DIR   writes DIR/slurm.conf, starts the daemons, waits until the node is idle;
#                                then `export SLURM_CONF=DIR/slurm.conf` for sbatch, squeue, scancel, ...
#   slurm_cluster.sh stop DIR    stops the daemons by their PIDs (DIR/*.pid) and waits for them to end
# Exit 77 (the tests' SKIP) with the reason when Slurm or munge is not installed or the cluster does not
# come up (within EVENT_BOUND seconds).
# The node offers 16 CPUs on a machine of any size (config_overrides): the test's jobs mostly wait at a
# hold for their signal, and several of them run at once. Partitions: `batch` (the default), `low`
# (its jobs can be pre-empted: requeued) and `urgent` (it pre-empts `low`); credentials expire after
# 5 s instead of 120 s, which is also how long a requeued job waits before it may start again (Slurm's
# rule; on a real cluster with the default that wait is about two minutes). Ports 17817/17818 (or
# SLURM_TEST_PORT and SLURM_TEST_PORT + 1).
set -u
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || {
  echo "usage: slurm_cluster.sh start|stop DIR" >&2
  exit 2
}
EVENT_BOUND=${EVENT_BOUND:-300}

stop() {
  local pids="" p e
  # the jobs' processes first (slurmstepd and what it started outlive slurmd): every process whose
  # environment names this cluster's configuration
  if [ -n "${dir:-}" ] && [ -f "$dir/slurm.conf" ]; then
    for e in /proc/[0-9]*/environ; do
      p=${e#/proc/}
      p=${p%/environ}
      [ "$p" != $$ ] && tr '\0' '\n' <"$e" 2>/dev/null | grep -qx "SLURM_CONF=$dir/slurm.conf" && pids="$pids $p"
    done
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    pids=""
  fi
  for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/pid"; do
    [ -f "$f" ] && p=$(cat "$f") && [ -n "$p" ] && kill "$p" 2>/dev/null && pids="$pids $p"
  done
  local end=$((SECONDS + 30))
  for p in $pids; do
    while kill -0 "$p" 2>/dev/null; do
      if [ $SECONDS -ge $end ]; then
        kill -9 "$p" 2>/dev/null
        break
      fi
      sleep 0.05
    done
  done
  return 0
}

skip() {
  echo "slurm_cluster: SKIP: $*"
  stop
  exit 77
}

case $cmd in
stop)
  stop
  exit 0
  ;;
start) ;;
*)
  echo "slurm_cluster.sh: unknown command '$cmd'" >&2
  exit 2
  ;;
esac

for p in munged slurmctld slurmd sbatch; do
  command -v "$p" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
  command -v "$p" >/dev/null 2>&1 || skip "$p is not installed (bash scripts/deps.sh slurm)"
done
mkdir -p "$dir"/{munge,state,spool,log}
dir=$(cd "$dir" && pwd)
port=${SLURM_TEST_PORT:-17817}
host=$(hostname -s)
head -c 1024 /dev/urandom >"$dir/munge/key"
chmod 400 "$dir/munge/key"
munged --key-file="$dir/munge/key" --socket="$dir/munge/sock" --pid-file="$dir/munge/pid" \
  --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" -f 2>"$dir/log/munged.err" ||
  skip "munged did not start: $(cat "$dir/log/munged.err")"
user=$(id -un)
cat >"$dir/slurm.conf" <<CONF
ClusterName=impactfit-test
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock,cred_expire=5
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=1
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1,sched_min_interval=100000
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
KillWait=10
MinJobAge=300
NodeName=$host CPUs=16 State=UNKNOWN
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP PriorityTier=2 PreemptMode=OFF
PartitionName=low Nodes=$host MaxTime=INFINITE State=UP PriorityTier=1 PreemptMode=REQUEUE
PartitionName=urgent Nodes=$host MaxTime=INFINITE State=UP PriorityTier=3 PreemptMode=OFF
CONF
# PMIx's per-step folders under this cluster's folder, not /tmp (job IDs start at 1 on every new cluster)
mkdir -p "$dir/pmix"
echo "PMIxCliTmpDirBase=$dir/pmix" >"$dir/mpi.conf"
export SLURM_CONF=$dir/slurm.conf
slurmctld -D >"$dir/log/slurmctld.out" 2>&1 &
slurmd -D >"$dir/log/slurmd.out" 2>&1 &
end=$((SECONDS + EVENT_BOUND))
until [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; do
  if [ $SECONDS -ge $end ]; then
    skip "the node did not become idle within $EVENT_BOUND s: $(tail -n 3 "$dir"/log/*.out 2>/dev/null | tr '\n' ' ')"
  fi
  sleep 0.1
done
# SLURM_CLUSTER_OWNER=PID (the test): the cluster stops when that process is gone, also when it was killed
# with SIGKILL (ctest's timeout), whose EXIT trap cannot run: the daemons would outlive it
if [ -n "${SLURM_CLUSTER_OWNER:-}" ]; then
  (
    tail --pid="$SLURM_CLUSTER_OWNER" -f /dev/null # returns when the owner is gone
    stop
  ) </dev/null >/dev/null 2>&1 &
fi
echo "slurm_cluster: up ($dir/slurm.conf)"
