#!/usr/bin/env bash
# Cold `resolve` of the cluster-resolver command under several JVM settings, with the ColdStart
# harness (wall and CPU time per run). Usage: bash benchmarks/cold-start.sh [RUNS]
# Needs benchmarks/target/benchmarks.jar (mvn -q -B -DskipTests package -pl benchmarks -am).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-20}"
harness=(java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ColdStart --runs "$runs" --warmup 3 --)
fast=(-XX:+UseSerialGC -Xss512k -XX:TieredStopAtLevel=1 -Xlog:disable -Xlog:all=warning:stderr)

./cluster-resolver resolve >/dev/null # builds the distribution and its class-data archive when needed
home="$(dirname "$(dirname "$(ls -d resolver-cli/target/cluster-resolver-*/bin/cluster-resolver | head -n 1)")")"
classpath="$home/lib/*:$home/plugins/*"

echo "== ./cluster-resolver resolve (the wrapper and bin/cluster-resolver: C1, serial GC, AppCDS archive)"
"${harness[@]}" ./cluster-resolver resolve
echo "== bin/cluster-resolver resolve (the distribution's launcher alone)"
"${harness[@]}" "$home/bin/cluster-resolver" resolve
echo "== java -cp lib/*:plugins/* resolve (JVM defaults)"
"${harness[@]}" java -cp "$classpath" io.clusterresolver.cli.Main resolve
echo "== C1 + serial GC, the JDK's default CDS archive only"
"${harness[@]}" java "${fast[@]}" -cp "$classpath" io.clusterresolver.cli.Main resolve
