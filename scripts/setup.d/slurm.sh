#!/usr/bin/env bash
# Installs Debian's Slurm (slurmctld, slurmd, client) and munge, so the real-Slurm integration tests
# of resolver-cli can start a local four-node cluster (scripts/slurm-cluster.sh). Idempotent.
#
# Root is needed to install packages. Without root (and outside CI) it only says why it skips; with
# CI=true a Slurm that cannot be installed is a failure, because the integration tests would fail too.
set -euo pipefail

have_slurm() {
  command -v slurmctld >/dev/null 2>&1 || [ -x /usr/sbin/slurmctld ]
} 

if have_slurm && [ -x /usr/sbin/slurmd ] && command -v srun >/dev/null 2>&1 && [ -x /usr/sbin/munged ]; then
  echo "slurm: already installed (slurm-client $(dpkg-query -W -f='${Version}' slurm-client 2>/dev/null || echo '(version unknown)'))"
  exit 0
fi

fail_or_skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "slurm: ERROR: $1 (CI=true: the real-Slurm integration tests need it)" >&2
    exit 1
  fi
  echo "slurm: skipped: $1; the real-Slurm integration tests will be skipped"
  exit 0
}

if [ "$(id -u)" -ne 0 ]; then
  fail_or_skip "not root, cannot apt-get install slurmctld slurmd slurm-client munge"
fi
if ! command -v apt-get >/dev/null 2>&1; then
  fail_or_skip "no apt-get on this machine"
fi

# Package scripts try to start the daemons through invoke-rc.d; there is no systemd here and the
# tests start the daemons themselves, so forbid service starts while installing.
policy=/usr/sbin/policy-rc.d
created_policy=false
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 0755 "$policy"
  created_policy=true
fi
cleanup() { if [ "$created_policy" = true ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
if ! timeout 600 apt-get update -qq; then
  fail_or_skip "apt-get update failed"
fi
if ! timeout 900 apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge; then
  fail_or_skip "apt-get install slurmctld slurmd slurm-client munge failed"
fi
# munged refuses to start without a key; the Debian package normally creates one.
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --force; else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
fi
echo "slurm: installed (slurm-client $(dpkg-query -W -f='${Version}' slurm-client 2>/dev/null || echo '(version unknown)'))"
