#!/usr/bin/env bash
# Starts or stops a local four-node Slurm cluster on loopback for the real-Slurm integration tests.
#
#   scripts/slurm-cluster.sh start STATE_DIR   writes STATE_DIR/etc/slurm.conf and gres.conf, starts
#                                              munged (unless running), slurmctld and four slurmd
#                                              (node1..node4, 4 CPUs and 4 fake GPUs each), and waits
#                                              until sinfo shows the nodes idle.
#   scripts/slurm-cluster.sh stop STATE_DIR    stops everything started for STATE_DIR, by pid file.
#
# Clients must use the generated configuration: export SLURM_CONF=STATE_DIR/etc/slurm.conf.
# Everything is bounded: a start that does not reach idle nodes in START_TIMEOUT seconds (default
# 30) fails, and a failed start stops what it started. Another cluster on the host (another test
# run) is waited for, up to WAIT_FOR_OTHER_CLUSTER seconds (600). Needs root.
set -euo pipefail

usage() { echo "usage: $0 start|stop STATE_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
state=$(mkdir -p "$2" && cd "$2" && pwd)
nodes="node1 node2 node3 node4"
conf="$state/etc/slurm.conf"
timeout_s=${START_TIMEOUT:-30}

log() { echo "slurm-cluster: $*" >&2; }

# Sends TERM to the process in a pid file, waits up to 10 s, then KILL. Only pids we recorded.
stop_pidfile() {
  local file=$1 pid
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$file"
}

stop() {
  export SLURM_CONF="$conf"
  if [ -f "$conf" ] && command -v scancel >/dev/null 2>&1; then
    timeout 5 scancel --quiet --full --user=root >/dev/null 2>&1 || true
  fi
  for n in $nodes; do stop_pidfile "$state/slurmd-$n.pid"; done
  stop_pidfile "$state/slurmctld.pid"
  # munged is shared by everything on the host: stop it only when this state dir started it.
  if [ -f "$state/munged.started" ]; then
    stop_pidfile /run/munge/munged.pid
    rm -f "$state/munged.started"
  fi
  log "stopped ($state)"
}

write_config() {
  mkdir -p "$state/etc" "$state/ctld" "$state/log" "$state/dev"
  for n in $nodes; do mkdir -p "$state/d/$n"; done
  # Fake GPUs: Slurm only accepts GRES files that are character or block devices.
  local devs=() i
  for i in 0 1 2 3; do
    local dev="$state/dev/nvidia$i"
    [ -c "$dev" ] || mknod "$dev" c 195 "$i" 2>/dev/null || true
    if [ -c "$dev" ]; then devs+=("$dev"); fi
  done
  if [ ${#devs[@]} -ne 4 ]; then
    log "mknod not permitted: using existing character devices as fake GPUs"
    devs=(/dev/null /dev/zero /dev/full /dev/random)
  fi
  cat > "$conf" <<CONF
ClusterName=ci
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d/%n
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd-%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=node[1-4] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[17001-17004] CPUs=4 RealMemory=1000 Gres=gpu:4 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  local files
  files=$(IFS=,; echo "${devs[*]}")
  printf 'AutoDetect=off\nNodeName=node[1-4] Name=gpu File=%s\n' "$files" > "$state/etc/gres.conf"
}

start() {
  [ "$(id -u)" -eq 0 ] || { log "must run as root"; exit 1; }
  for b in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd; do
    [ -x "$b" ] || { log "$b missing: run scripts/setup.d/slurm.sh"; exit 1; }
  done
  if [ -s "$state/slurmctld.pid" ] && kill -0 "$(cat "$state/slurmctld.pid")" 2>/dev/null; then
    log "already running for $state"; exit 0
  fi
  # One local cluster per host (fixed ports 6817, 17001-17004): wait, bounded, for another test
  # run's cluster to stop instead of failing on a port clash.
  local wait_deadline=$((SECONDS + ${WAIT_FOR_OTHER_CLUSTER:-600}))
  while pgrep -x slurmctld >/dev/null 2>&1; do
    if [ $SECONDS -ge $wait_deadline ]; then
      log "another slurmctld is still running on this host (another test run?): stop it first"; exit 1
    fi
    log "waiting for another local Slurm cluster to stop"; sleep 2
  done
  trap 'log "start failed; stopping"; stop; exit 1' ERR
  write_config
  export SLURM_CONF="$conf"
  if ! pgrep -x munged >/dev/null 2>&1; then
    install -d -o munge -g munge -m 0755 /run/munge
    runuser -u munge -- /usr/sbin/munged
    touch "$state/munged.started"
  fi
  /usr/sbin/slurmctld -c -f "$conf"
  for n in $nodes; do /usr/sbin/slurmd -N "$n" -f "$conf"; done
  local deadline=$((SECONDS + timeout_s))
  until [ "$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" -eq 4 ]; do
    if [ $SECONDS -ge $deadline ]; then
      log "nodes not idle after ${timeout_s}s:"; sinfo -N >&2 || true
      tail -n 20 "$state"/log/*.log >&2 || true
      false
    fi
    sleep 0.2
  done
  trap - ERR
  log "running: SLURM_CONF=$conf ($(sinfo -h -N -o '%N %t' | tr '\n' ' '))"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
