#!/usr/bin/env bash
# Installs Debian's PyTorch (python3-torch, 1.13), so resolver-cli's PyTorchLaunchIT can form real
# torch.distributed gloo groups from `cluster-resolver resolve --format env`. Idempotent; about
# 180 packages, 1.5 min with a warm apt cache.
set -euo pipefail
SETUP_NAME=pytorch
SETUP_NEEDED_BY="the PyTorch launch integration tests"
# shellcheck source=lib/apt.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/apt.sh"

torch_version() { /usr/bin/python3 -c 'import torch; print(torch.__version__)' 2>/dev/null; }

if version=$(torch_version); then
  echo "pytorch: already installed (torch $version)"
  exit 0
fi
apt_install python3-torch
version=$(torch_version) || fail_or_skip "python3-torch installed but /usr/bin/python3 cannot import torch"
echo "pytorch: installed (torch $version)"
