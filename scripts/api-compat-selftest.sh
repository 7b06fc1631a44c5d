#!/usr/bin/env bash
# Proves that the API check bites: in a throwaway copy of this checkout, removes a public method
# from resolver-api (TaskAddress.withPort) and changes one in resolver-cloud (Deadline.budget()
# gains a parameter), bumps both by a patch version with scripts/bump.sh, builds the two modules
# and expects japicmp to fail each with "patch change but binary incompatible changes found" (or
# "minor change ..." for a module whose version is already a minor above its baseline, as resolver-cloud
# 1.1.x against api-baselines/resolver-cloud-1.0.0.jar): a broken public method under any non-major bump.
# The unchanged tree passing the same check is the normal build. Takes about 30 s (two small
# modules, no tests). Run by scripts/test.sh; on its own: bash scripts/api-compat-selftest.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work=$(mktemp -d "${TMPDIR:-/tmp}/api-compat-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
log() { echo "api-compat-selftest: $*" >&2; }

(cd "$root" && tar --exclude=./.git --exclude='*/target' --exclude=./examples -cf - .) | tar -C "$work" -xf -

# Edits FILE with sed EXPR and fails loudly when the edit changed nothing (the API moved on:
# pick another public method here).
edit() {
  local file=$1 expr=$2 before
  before=$(md5sum "$work/$file")
  sed -i "$expr" "$work/$file"
  [ "$(md5sum "$work/$file")" != "$before" ] || { log "could not edit $file with '$expr': update this script"; exit 1; }
}
# Removing a public method of resolver-api: withPort(int) and its body (up to the closing brace).
edit resolver-api/src/main/java/io/clusterresolver/TaskAddress.java \
  '/public TaskAddress withPort(int newPort) {/,/^  }/d'
# Changing a public method of resolver-cloud: budget() -> budget(boolean).
edit resolver-cloud/src/main/java/io/clusterresolver/cloud/Deadline.java \
  's/public Duration budget() {/public Duration budget(boolean unused) {/'

patch_of() {
  local v; v=$(sed -n "/<artifactId>$1<\/artifactId>/{n;s:.*<version>\(.*\)</version>.*:\1:p;q}" "$work/$1/pom.xml")
  v=${v%-SNAPSHOT}; IFS=. read -r a b c <<< "$v"; echo "$a.$b.$((c + 1))-SNAPSHOT"
}
for m in resolver-api resolver-cloud; do
  out=$("$work/scripts/bump.sh" "$m" "$(patch_of "$m")"); echo "${out%%$'\n'*}" >&2
done

log "building the changed copy (expecting japicmp to fail both modules)"
set +e
(cd "$work" && mvn -B -ntp -o -Dstyle.color=never -DskipTests -Dmaven.javadoc.skip=true --fail-never \
   -pl resolver-api,resolver-cloud -am verify) > "$work/build.log" 2>&1
set -e
failed=0
for m in resolver-api resolver-cloud; do
  if grep -A3 "japicmp-maven-plugin.*on project $m" "$work/build.log" \
      | grep -Eq "(patch|minor) change but binary incompatible changes found"; then
    log "ok: $m at a patch version with a broken public method fails the build"
  else
    log "FAILED: japicmp did not fail $m"; failed=1
  fi
done
if [ $failed -ne 0 ]; then tail -n 60 "$work/build.log" >&2; exit 1; fi
