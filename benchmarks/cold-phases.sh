#!/usr/bin/env bash
# Where a cold `resolve` spends its time, from the JVM's class-loading log: the moment the first class of
# each phase is loaded marks the phase's start. Usage:
#   bash benchmarks/cold-phases.sh HOME PROVIDER CONFIG [ARCHIVE] [RUNS]
# HOME is a distribution (resolver-cli/target/cluster-resolver-<version>), CONFIG the properties file that
# points PROVIDER at its world (CloudWorlds writes them), ARCHIVE the class-data file the launcher would
# map (.jsa: -XX:SharedArchiveFile, .aot: -XX:AOTCache; "launcher": the one HOME's launcher maps for this
# resolve, on the launcher's class path, after a run that writes it when missing; JAVA_HOME picks the JVM;
# JDK_JAVA_OPTIONS as CloudWorlds' PROVIDER.jvm says, for azure's trust store), RUNS the runs to take the
# median of (default 5). The JVM options are the launcher's. Phases:
#   jvm         process start to the command's main class (io.clusterresolver.cli.Main)
#   command     picocli, options and provider discovery, to the provider's resolver factory
#   client      building the SDK client (settings, credentials, transport), to the first socket
#   listing     the first request and every page, laid out, to the JSON writer (TfConfigWriter)
#   output      writing the answer and exiting (to the process's exit, from /usr/bin/time)
# plus the classes loaded: all, and how many of them came from the archive. Not for a Java 25 AOT cache:
# it loads and links its classes before main (JEP 483), so the first loads no longer mark the phases.
set -euo pipefail
home=$1 provider=$2 config=$3 archive=${4:-} runs=${5:-5}
heap=${COLD_HEAP_OPTS--Xms16m} # the launcher's initial heap; COLD_HEAP_OPTS= for the launcher before it had one
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [ "$archive" = launcher ]; then
  "$home/bin/cluster-resolver" resolve --provider "$provider" --config "$config" >/dev/null 2>&1
  sleep 1 # on Java 25 the cache is written by a background JVM after the first run
  while ls "$home"/lib/.cds/*.lock >/dev/null 2>&1; do sleep 1; done
  trace=$(sh -x "$home/bin/cluster-resolver" resolve --provider "$provider" --config "$config" 2>&1 >/dev/null || true)
  exec_line=$(grep -m 1 'exec .*io.clusterresolver.cli.Main' <<<"$trace" | tr -d "'")
  archive=$(echo "$exec_line" | sed -n 's/.* -XX:\(SharedArchiveFile\|AOTCache\)=\([^ ]*\) .*/\2/p')
  # The launcher's own class path (one provider's jars since issue 23): an archive only maps on the path it was made on.
  classpath=$(echo "$exec_line" | sed -n 's/.* -cp \([^ ]*\) io\.clusterresolver\.cli\.Main.*/\1/p')
fi
classpath=${classpath:-$home/lib/*:$home/plugins/*}
use=()
case $archive in
  *.jsa) use=(-XX:SharedArchiveFile="$archive") ;;
  *.aot) use=(-XX:AOTCache="$archive") ;;
esac
factory=$(case $provider in gce) echo Gce ;; azure) echo Azure ;; tpu) echo Tpu ;; kubernetes) echo Kubernetes ;; aws) echo Aws ;; esac)
log=$(mktemp) times=$(mktemp)
trap 'rm -f "$log" "$times"' EXIT
for _ in $(seq "$runs"); do
  /usr/bin/time -f "%e %U %S %M" -o "$times" "$java" "${use[@]}" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss512k $heap \
    -Xlog:disable -Xlog:all=warning:stderr -Xlog:class+load=info:file="$log":uptime \
    -cp "$classpath" io.clusterresolver.cli.Main resolve --provider "$provider" --config "$config" \
    >/dev/null 2>&1
  awk -v factory="io.clusterresolver.$provider.${factory}ResolverFactory" -v times="$(cat "$times")" '
    function at(line) { gsub(/[\[\]s]/, "", line); return line * 1000 }
    { total++ }
    /source: shared objects file|source: .*\.jsa|AOT cache/ { shared++ }
    $2 == "io.clusterresolver.cli.Main" && !main { main = at($1) }
    $2 == factory && !fac { fac = at($1) }
    ($2 == "sun.nio.ch.NioSocketImpl" || $2 == "sun.nio.ch.SocketChannelImpl") && fac && !sock { sock = at($1) }
    $2 == "io.clusterresolver.tfconfig.TfConfigWriter" && !out { out = at($1) }
    END {
      split(times, t, " ")
      printf "%d %d %d %d %d %d %d %d %.0f %d\n", main, fac - main, sock - fac, out - sock, t[1] * 1000 - out, total,
        shared, t[1] * 1000, (t[2] + t[3]) * 1000, t[4] / 1024
    }' "$log"
done | sort -n -k8 | awk -v runs="$runs" '
  NR == int((runs + 1) / 2) {
    printf "median run (by wall): jvm %d ms | command %d ms | client %d ms | listing %d ms | output %d ms | wall %d ms, CPU %d ms, peak RSS %d MiB | classes %d, from the archive %d\n",
      $1, $2, $3, $4, $5, $8, $9, $10, $6, $7
  }'
