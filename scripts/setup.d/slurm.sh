#!/usr/bin/env bash
# Installs Debian's Slurm (slurmctld, slurmd, client) and munge, so the real-Slurm integration tests
# of resolver-cli can start a local four-node cluster (scripts/slurm-cluster.sh). Idempotent.
#
# Root is needed to install packages. Without root (and outside CI) it only says why it skips; with
# CI=true a Slurm that cannot be installed is a failure, because the integration tests would fail too.
set -euo pipefail
SETUP_NAME=slurm
SETUP_NEEDED_BY="the real-Slurm integration tests"
# shellcheck source=lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"

have_slurm() {
  command -v slurmctld >/dev/null 2>&1 || [ -x /usr/sbin/slurmctld ]
} 

if have_slurm && [ -x /usr/sbin/slurmd ] && command -v srun >/dev/null 2>&1 && [ -x /usr/sbin/munged ]; then
  echo "slurm: already installed (slurm-client $(dpkg-query -W -f='${Version}' slurm-client 2>/dev/null || echo '(version unknown)'))"
  exit 0
fi

apt_install slurmctld slurmd slurm-client munge
# munged refuses to start without a key; the Debian package normally creates one.
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --force; else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
  fi
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
fi
echo "slurm: installed (slurm-client $(dpkg-query -W -f='${Version}' slurm-client 2>/dev/null || echo '(version unknown)'))"
