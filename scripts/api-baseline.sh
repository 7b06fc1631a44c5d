#!/usr/bin/env bash
# Moves the API baseline of resolver-api or resolver-cloud: the jar japicmp compares every build with.
#
#   scripts/api-baseline.sh MODULE VERSION [JAR]
#
# Stores JAR (default: the module's jar in MODULE/target, built by `mvn package`) as
# api-baselines/MODULE-VERSION.jar, removes that module's older baseline and sets api.baseline.version
# in MODULE/pom.xml. Run it right after releasing MODULE VERSION, with the released jar (the one on
# Maven Central), then move the module to its next development version with scripts/bump.sh.
# See CONTRIBUTING.md, "API compatibility".
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 MODULE VERSION [JAR]" >&2; exit 2; }
module=$1 version=$2
[ -f "$root/$module/pom.xml" ] || { echo "api-baseline.sh: no module $module" >&2; exit 2; }
jar=${3:-$(ls "$root/$module"/target/"$module"-*.jar 2>/dev/null | grep -v -E -- '-(sources|javadoc|tests)\.jar$' | head -n 1 || true)}
[ -n "$jar" ] && [ -f "$jar" ] || { echo "api-baseline.sh: no jar (build it: mvn -pl $module -am package -DskipTests)" >&2; exit 1; }

mkdir -p "$root/api-baselines"
new="$root/api-baselines/$module-$version.jar"
for old in "$root"/api-baselines/"$module"-[0-9]*.jar; do
  if [ -f "$old" ] && [ "$old" != "$new" ]; then rm -f "$old"; fi
done
cp "$jar" "$new"
pom="$root/$module/pom.xml"
if grep -q '<api.baseline.version>' "$pom"; then
  sed -i "s:<api.baseline.version>[^<]*</api.baseline.version>:<api.baseline.version>$version</api.baseline.version>:" "$pom"
else
  sed -i "0,/<\/description>/s:</description>:</description>\n  <properties>\n    <api.baseline.version>$version</api.baseline.version>\n  </properties>:" "$pom"
fi
echo "api-baselines/$module-$version.jar <- ${jar#$root/}; $module/pom.xml api.baseline.version=$version"
