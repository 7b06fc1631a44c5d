#!/usr/bin/env bash
# Installs iproute2 ('ip'), so resolver-cli's RelayHostsIT can make its test hosts as Linux network
# namespaces (resolver-testkit TestHosts). Idempotent.
#
# Root is needed to install packages and to make namespaces. Without root (and outside CI) it only
# says why it skips; with CI=true a missing 'ip' is a failure, because RelayHostsIT fails under CI.
set -euo pipefail

if command -v ip >/dev/null 2>&1; then
  echo "iproute2: already installed ($(ip -V 2>&1 | head -1))"
  exit 0
fi

fail_or_skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "iproute2: ERROR: $1 (CI=true: RelayHostsIT needs network namespaces)" >&2
    exit 1
  fi
  echo "iproute2: skipped: $1; RelayHostsIT will be skipped"
  exit 0
}

if [ "$(id -u)" -ne 0 ]; then
  fail_or_skip "not root, cannot apt-get install iproute2"
fi
if ! command -v apt-get >/dev/null 2>&1; then
  fail_or_skip "no apt-get to install iproute2"
fi
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iproute2 \
  || fail_or_skip "apt-get install iproute2 failed"
echo "iproute2: installed ($(ip -V 2>&1 | head -1))"
