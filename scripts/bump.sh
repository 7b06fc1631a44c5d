#!/usr/bin/env bash
# Bumps one module's version, in its pom.xml and in the BOM (bom/pom.xml), and says what else must be
# re-released:
#
#   scripts/bump.sh MODULE VERSION        e.g. scripts/bump.sh resolver-aws 0.3.1-SNAPSHOT
#   scripts/bump.sh resolver-bom VERSION  moves the BOM itself (and every import of it)
#
# MODULE is an artifactId built by a <module> of the root pom.xml. The BOM's own version moves too
# when it is a release (X.Y.Z becomes X.Y.(Z+1)-SNAPSHOT; BOM_VERSION=... chooses another), since a
# released BOM never changes; the root pom's resolver-bom.version, the examples and the README's
# import snippet follow it.
# A VERSION without -SNAPSHOT (a release) also turns the module's "## [Unreleased]" CHANGELOG
# section into "## [VERSION] - date".
#
# Plain text edits (no Maven, no network): the first <version> after <artifactId>MODULE</artifactId>
# in the module's pom and in the BOM. `mvn validate` (the module-versions enforcer rule) checks them.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { echo "usage: $0 MODULE VERSION" >&2; exit 2; }
[ $# -eq 2 ] || usage
module=$1 version=$2
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?$ ]] \
  || { echo "bump.sh: '$version' is not MAJOR.MINOR.PATCH[-QUALIFIER]" >&2; exit 2; }

bom="$root/bom/pom.xml"

# The <module> directories of the root pom (one per line).
modules() { sed -n 's:^[[:space:]]*<module>\([^<]*\)</module>.*:\1:p' "$root/pom.xml"; }

# The first top-level <artifactId> of a pom after its <parent> block.
artifact_of() {
  awk '/<parent>/{p=1} /<\/parent>/{p=0; next} !p && /<artifactId>/ {
         sub(/.*<artifactId>/, ""); sub(/<\/artifactId>.*/, ""); print; exit }' "$1"
}

# Prints the text of the first <version> after <artifactId>ID</artifactId> in FILE.
version_after() {
  awk -v id="$2" 'found && /<version>/ { sub(/.*<version>/, ""); sub(/<\/version>.*/, ""); print; exit }
                  $0 ~ "<artifactId>" id "</artifactId>" { found=1 }' "$1"
}

# Replaces the first <version> after <artifactId>ID</artifactId> in FILE with NEW.
set_version_after() {
  local file=$1 id=$2 new=$3 tmp
  tmp=$(mktemp)
  awk -v id="$id" -v new="$new" '
    found && !done && /<version>/ { sub(/<version>[^<]*<\/version>/, "<version>" new "</version>"); done=1 }
    $0 ~ "<artifactId>" id "</artifactId>" { found=1 }
    { print }
    END { if (!done) exit 3 }' "$file" > "$tmp" || { rm -f "$tmp"; echo "bump.sh: no <version> after $id in $file" >&2; exit 1; }
  cat "$tmp" > "$file"; rm -f "$tmp"
}

# The directory of the module whose artifactId is ID.
dir_of() {
  local d
  for d in $(modules); do
    if [ -f "$root/$d/pom.xml" ] && [ "$(artifact_of "$root/$d/pom.xml")" = "$1" ]; then echo "$d"; return; fi
  done
}

set_bom_version() {
  local new=$1 f
  set_version_after "$bom" resolver-bom "$new"
  sed -i "s:<resolver-bom.version>[^<]*</resolver-bom.version>:<resolver-bom.version>$new</resolver-bom.version>:" \
    "$root/pom.xml"
  for f in "$root"/examples/*/pom.xml; do
    [ -f "$f" ] && sed -i "s:<resolver-bom.version>[^<]*</resolver-bom.version>:<resolver-bom.version>$new</resolver-bom.version>:" "$f"
  done
  if grep -q '<artifactId>resolver-bom</artifactId>' "$root/README.md"; then
    set_version_after "$root/README.md" resolver-bom "$new"     # the import snippet users copy
  fi
  echo "resolver-bom -> $new (pom.xml resolver-bom.version, examples/ and README.md follow)"
}

bom_version=$(version_after "$bom" resolver-bom)
if [ "$module" = resolver-bom ]; then
  set_bom_version "$version"
  exit 0
fi

dir=$(dir_of "$module")
[ -n "$dir" ] || { echo "bump.sh: no <module> of pom.xml builds '$module' (modules: $(modules | tr '\n' ' '))" >&2; exit 2; }
pinned=$(version_after "$bom" "$module")
[ -n "$pinned" ] || { echo "bump.sh: $module is not in bom/pom.xml: add it there first (see CONTRIBUTING.md)" >&2; exit 2; }
old=$(version_after "$root/$dir/pom.xml" "$module")

set_version_after "$root/$dir/pom.xml" "$module" "$version"
set_version_after "$bom" "$module" "$version"
echo "$module: $old -> $version ($dir/pom.xml, bom/pom.xml)"

if [ -n "${BOM_VERSION:-}" ]; then
  set_bom_version "$BOM_VERSION"
elif [[ "$bom_version" != *-SNAPSHOT ]]; then
  IFS=. read -r bmaj bmin bpat <<< "${bom_version%%-*}"
  set_bom_version "$bmaj.$bmin.$((bpat + 1))-SNAPSHOT"
fi

changelog="$root/$dir/CHANGELOG.md"
if [[ "$version" != *-SNAPSHOT ]] && [ -f "$changelog" ] && grep -q '^## \[Unreleased\]' "$changelog"; then
  sed -i "s:^## \[Unreleased\].*:## [Unreleased]\n\n## [$version] - $(date -u +%F):" "$changelog"
  echo "$dir/CHANGELOG.md: the Unreleased section is now [$version]"
fi

# Which modules depend on this one, directly or through another module.
declare -A deps_of=() unpublished=()
for d in $(modules); do
  [ "$d" = bom ] && continue
  f="$root/$d/pom.xml"; [ -f "$f" ] || continue
  id=$(artifact_of "$f")
  grep -q '<maven.deploy.skip>true</maven.deploy.skip>' "$f" && unpublished[$id]=1
  deps_of[$id]=$(awk '/<dependencies>/{n++} /<\/dependencies>/{n--}
      n>0 && /<artifactId>/ { sub(/.*<artifactId>/, ""); sub(/<\/artifactId>.*/, ""); print }' "$f" | tr '\n' ' ')
done
direct=() indirect=()
for id in "${!deps_of[@]}"; do
  [[ " ${deps_of[$id]} " == *" $module "* ]] && direct+=("$id")
done
frontier=("${direct[@]}") seen=" $module ${direct[*]} "
while [ ${#frontier[@]} -gt 0 ]; do
  next=()
  for up in "${frontier[@]}"; do
    for id in "${!deps_of[@]}"; do
      if [[ " ${deps_of[$id]} " == *" $up "* ]] && [[ "$seen" != *" $id "* ]]; then
        indirect+=("$id"); next+=("$id"); seen+="$id "
      fi
    done
  done
  frontier=("${next[@]}")
done

# Semantic versioning: the compatible range of X.Y.Z is [X.0.0, X+1) for X >= 1, [0.Y.0, 0.Y+1) for 0.Y.
line_of() { local v=${1%%-*}; IFS=. read -r a b _ <<< "$v"; if [ "$a" = 0 ]; then echo "0.$b"; else echo "$a"; fi; }
# Published modules only (benchmarks, conformance are rebuilt, never released).
sorted() { local id; for id in "$@"; do [ -n "${unpublished[$id]:-}" ] || echo "$id"; done | sort | tr '\n' ' '; }
report_dependents() {
  local d i; d=$(sorted "${direct[@]}"); i=$(sorted "${indirect[@]}")
  [ -z "$d" ] || echo "  depend on $module: $d"
  [ -z "$i" ] || echo "  through them:  $i"
}
if [ -z "$(sorted "${direct[@]}")" ]; then
  echo "No other published module depends on $module."
elif [ "$(line_of "$old")" != "$(line_of "$version")" ]; then
  echo "$old -> $version leaves the compatible range of $old: these modules MUST be re-released"
  echo "  (rebuilt, tested and bumped themselves) with the BOM:"
  report_dependents
else
  echo "$old -> $version stays in the compatible range of $old: modules built against $old keep working"
  echo "  with it and need no release; the BOM pins the new version for them."
  report_dependents
fi
