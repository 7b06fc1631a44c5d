#!/usr/bin/env bash
# The whole test suite, as the README and CI run it:
#   1. every scripts/setup.d/*.sh in name order installs what some tests need (a local Slurm, ...);
#   2. mvn -B -ntp verify builds every module and runs all unit and integration tests.
# Needs only Java 17+ and Maven 3.8+; Maven downloads everything else from Maven Central.
# Extra arguments go to Maven, e.g. `bash scripts/test.sh -pl resolver-cli -am`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "test.sh: '$tool' is not on the PATH: install Java 17 and Maven 3.8 or newer" >&2
    exit 1
  fi
done

shopt -s nullglob
for setup in scripts/setup.d/*.sh; do
  echo "test.sh: running $setup"
  if ! bash "$setup"; then
    echo "test.sh: $setup failed; fix it or the machine before running the tests" >&2
    exit 1
  fi
done
shopt -u nullglob

echo "test.sh: mvn -B -ntp verify $*"
exec mvn -B -ntp verify "$@"
