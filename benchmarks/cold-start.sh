#!/usr/bin/env bash
# Cold `resolve` of the cluster-resolver command under several JVM settings, with the ColdStart
# harness (wall and CPU time per run). Usage: bash benchmarks/cold-start.sh [RUNS]
# Needs benchmarks/target/benchmarks.jar (mvn -q -B -DskipTests package -pl benchmarks -am).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${1:-20}"
jar="$root/resolver-cli/target/cluster-resolver.jar"
archive="$root/resolver-cli/target/cluster-resolver.jsa"
harness=(java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ColdStart --runs "$runs" --warmup 3 --)
fast=(-XX:+UseSerialGC -Xss512k -XX:TieredStopAtLevel=1 -Xlog:disable -Xlog:all=warning:stderr)

./cluster-resolver resolve >/dev/null # builds the jar and the class-data archive when needed

echo "== ./cluster-resolver resolve (the wrapper: C1, serial GC, AppCDS archive)"
"${harness[@]}" ./cluster-resolver resolve
echo "== java -jar cluster-resolver.jar resolve (JVM defaults)"
"${harness[@]}" java -jar "$jar" resolve
echo "== C1 + serial GC, the JDK's default CDS archive only"
"${harness[@]}" java "${fast[@]}" -jar "$jar" resolve
echo "== C1 + serial GC + AppCDS archive, --format env (TF_CONFIG through Jackson databind)"
"${harness[@]}" java "${fast[@]}" -XX:SharedArchiveFile="$archive" -jar "$jar" resolve --format env
echo "== C1 + serial GC + AppCDS archive, --version (JVM + picocli only)"
"${harness[@]}" java "${fast[@]}" -XX:SharedArchiveFile="$archive" -jar "$jar" --version
