# Sourced by the installers in scripts/setup.d (not run by itself: scripts/test.sh runs only *.sh
# directly in setup.d). Each installer sets SETUP_NAME and SETUP_NEEDED_BY first.

# Outside CI a machine that cannot install says why and the tests that need it skip; with CI=true
# that is a failure, because CI must run those tests.
fail_or_skip() {
  if [ "${CI:-}" = "true" ]; then
    echo "$SETUP_NAME: ERROR: $1 (CI=true: $SETUP_NEEDED_BY need it)" >&2
    exit 1
  fi
  echo "$SETUP_NAME: skipped: $1; $SETUP_NEEDED_BY will be skipped"
  exit 0
}

# apt-get install PACKAGE... (no recommends, no service starts), or fail_or_skip with the reason.
apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    fail_or_skip "not root, cannot apt-get install $*"
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    fail_or_skip "no apt-get on this machine"
  fi
  # Package scripts may try to start daemons through invoke-rc.d; there is no systemd here and the
  # tests start what they need themselves, so forbid service starts while installing.
  local policy=/usr/sbin/policy-rc.d created_policy=false status=0 reason=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod 0755 "$policy"
    created_policy=true
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! timeout 600 apt-get update -qq; then
    status=1; reason="apt-get update failed"
  elif ! timeout 900 apt-get install -y -qq --no-install-recommends "$@"; then
    status=1; reason="apt-get install $* failed"
  fi
  if [ "$created_policy" = true ]; then rm -f "$policy"; fi
  if [ "$status" -ne 0 ]; then fail_or_skip "$reason"; fi
}
