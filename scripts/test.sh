#!/usr/bin/env bash
# The whole test suite, as the README and CI run it:
#   1. every scripts/setup.d/*.sh in name order installs what some tests need (a local Slurm, ...);
#   2. mvn -B -ntp -P release verify builds every module with its -sources and -javadoc jars (Javadoc
#      errors fail), runs all unit and integration tests, and japicmp
#      checks resolver-api and resolver-cloud against api-baselines/;
#   3. scripts/api-compat-selftest.sh shows that japicmp fails a broken public method under a patch
#      bump (about 15 s);
#   4. scripts/examples.sh builds examples/provider (the README's provider, through the TCK) and
#      examples/app (an application on the BOM, run in a simulated Slurm step) against the modules
#      just built, deployed only to the throwaway target/examples-repo; everything else resolves
#      from the local repository and Maven Central as in any build (about 1 min).
# Steps 3 and 4 run only for the whole build (no extra arguments), or with EXTRAS=1.
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

echo "test.sh: mvn -B -ntp -P release verify $*"
mvn -B -ntp -P release verify "$@"

if [ $# -eq 0 ] || [ "${EXTRAS:-0}" = 1 ]; then
  echo "test.sh: scripts/api-compat-selftest.sh"
  bash scripts/api-compat-selftest.sh
  echo "test.sh: scripts/examples.sh"
  bash scripts/examples.sh
fi
