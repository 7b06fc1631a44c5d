#!/usr/bin/env bash
# Builds and runs the projects under examples/ the way their users would, against this checkout's
# modules (run after the reactor build; scripts/test.sh does). Each example is one function below
# and one call at the end of this file.
#
# Where artifacts come from, as for any user's build:
#   - third-party artifacts and plugins: the local repository Maven uses anyway (~/.m2/repository,
#     or -Dmaven.repo.local in MAVEN_OPTS, or MAVEN_LOCAL_REPO), and Maven Central for anything it
#     lacks; nothing is copied, and whatever is downloaded lands there as in any build;
#   - our modules (MODULES below, with what they need): built from this checkout and deployed to
#     the throwaway repository target/examples-repo, which target/examples-settings.xml declares as
#     one more remote repository. They are never installed into the shared local repository.
# The builds here use target/examples-m2 as their local repository: links to every group of the
# shared one except io.clusterresolver, which stays empty there. So a module of ours installed in
# ~/.m2 by hand (or left by an older build) is never seen, and the deploy step proves what a fresh
# clone needs: our modules build from this checkout alone, everything else resolves like any
# third-party artifact. (The first run of a fresh clone against an EMPTY local repository downloads
# several hundred files before the first compile: too slow for every CI run; see docs/testing.md.)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log() { echo "examples.sh: $*" >&2; }
fail() { log "FAILED: $*"; exit 1; }

# The modules the examples use; --also-make adds what they need.
MODULES=bom,resolver-api,resolver-cloud,resolver-testkit,resolver-slurm,resolver-runtime,resolver-tensorflow

shared_repo() {
  if [ -n "${MAVEN_LOCAL_REPO:-}" ]; then echo "$MAVEN_LOCAL_REPO"; return; fi
  local option
  for option in ${MAVEN_OPTS:-}; do
    case $option in -Dmaven.repo.local=*) echo "${option#-Dmaven.repo.local=}"; return ;; esac
  done
  echo "$HOME/.m2/repository"
}
shared="$(shared_repo)"
view="$root/target/examples-m2"
published="$root/target/examples-repo"
settings="$root/target/examples-settings.xml"

# The local repository of the builds below: the shared one, less our own group.
mkdir -p "$shared/io"
rm -rf "$view" "$published"
mkdir -p "$view/io" "$published"
shopt -s nullglob
for entry in "$shared"/*; do [ "${entry##*/}" = io ] || ln -s "$entry" "$view/"; done
for entry in "$shared"/io/*; do [ "${entry##*/}" = clusterresolver ] || ln -s "$entry" "$view/io/"; done
shopt -u nullglob

cat > "$settings" <<XML
<settings>
  <!-- Written by scripts/examples.sh: this checkout's modules, as deployed there, besides Maven Central. -->
  <profiles>
    <profile>
      <id>this-checkout</id>
      <repositories>
        <repository>
          <id>cluster-resolver-examples</id>
          <url>file://$published</url>
          <snapshots>
            <updatePolicy>always</updatePolicy>
          </snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles>
    <activeProfile>this-checkout</activeProfile>
  </activeProfiles>
</settings>
XML
mvn_examples() { mvn -B -ntp -Dstyle.color=never -s "$settings" -Dmaven.repo.local="$view" "$@"; }

publish_modules() {
  log "deploying $MODULES (and what they need) to target/examples-repo"
  mvn_examples -q -DskipTests -DskipITs -Djapicmp.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -Dmaven.install.skip=true -DaltDeploymentRepository="cluster-resolver-examples::file://$published" \
    -pl "$MODULES" -am deploy
}

# The plugin author's project: README.md's "Writing a provider" code, through the TCK.
example_provider() {
  local readme_code tests
  local block file
  for block in 1:InventoryProvider 2:InventoryKitProvider; do
    file=examples/provider/src/main/java/com/example/cluster/${block#*:}.java
    # The block-th java block of the section "Writing a provider".
    readme_code=$(awk -v n="${block%%:*}" '/^## Writing a provider/{s=1} s && /^## Modules/{exit}
      s && /^```java$/{b++; if (b == n) {c=1; next}} c && /^```$/{exit} c' README.md)
    if ! diff <(echo "$readme_code") "$file" >&2; then
      fail "README.md's 'Writing a provider' code (java block ${block%%:*}) differs from $file (above)"
    fi
  done
  log "examples/provider: README code == InventoryProvider.java and InventoryKitProvider.java; running the TCK"
  mvn_examples -q -f examples/provider/pom.xml verify
  for tests in InventoryContractTest InventoryKitContractTest; do
    log "examples/provider: $tests passed (tests, failures: $(sed -n 's/.*tests="\([0-9]*\)".*failures="\([0-9]*\)".*/\1 \2/p' \
      "examples/provider/target/surefire-reports/TEST-com.example.cluster.$tests.xml" | head -n 1))"
  done
}

# The application: one provider on its dependency tree, run as task 1 of a simulated Slurm step.
example_app() {
  local port out
  log "examples/app: building"
  mvn_examples -q -f examples/app/pom.xml package \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:tree -DoutputFile=target/dependency-tree.txt \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/classpath.txt
  cat examples/app/target/dependency-tree.txt
  if grep -E 'software\.amazon|com\.google\.cloud|com\.azure|io\.fabric8|io\.kubernetes|resolver-(aws|gce|tpu|azure|kubernetes|tfconfig|cli|testkit)' \
      examples/app/target/dependency-tree.txt >&2; then
    fail "examples/app: the lines above are another provider or its SDK"
  fi
  log "examples/app: one provider (slurm), no cloud SDK"

  port=$(( 20000 + RANDOM % 20000 ))
  out=$(env -i PATH="$PATH" HOME="$HOME" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} \
    SLURM_JOB_ID=4242 SLURM_STEP_ID=0 SLURM_STEP_NODELIST=localhost SLURM_STEP_TASKS_PER_NODE=2 \
    SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1 SLURM_LOCALID=1 SLURMD_NODENAME=localhost \
    CLUSTERRESOLVER_SLURM_PORT_BASE=$port \
    timeout 60 java -cp "examples/app/target/classes:$(cat examples/app/target/classpath.txt)" com.example.app.App 2)
  echo "$out"
  expect() { grep -qxF "$1" <<< "$out" || fail "examples/app printed no line '$1'"; }
  expect "cluster: {worker=[localhost:$port, localhost:$((port + 1))]}"
  expect "me: worker:1"
  expect "master: grpc://localhost:$((port + 1))"
  expect "formed: 2 tasks"
  expect "serving: /job:worker/replica:0/task:1 on port $((port + 1))"
  log "examples/app: resolved the simulated Slurm step and served its task"
}


# ---- 4. examples/tensorflow (resolver-tensorflow; kept as one block) --------------------------------
# Three processes of a simulated Slurm step: ranks 0 and 1 are `cluster-resolver tf-server` (the
# distribution built by the reactor, with its tensorflow/ folder), rank 2 is the example, which connects
# to them and runs a matmul on each. Needs resolver-cli packaged (scripts/test.sh builds it first).
example_tensorflow() {
  local dist pids=() port out
  dist=$(ls -d "$root"/resolver-cli/target/cluster-resolver-*/ 2>/dev/null | head -n 1)
  [ -n "$dist" ] && [ -d "$dist/tensorflow" ] || fail "examples/tensorflow: no distribution with tensorflow/ under resolver-cli/target (package resolver-cli first)"
  mvn_examples -q -f examples/tensorflow/pom.xml package \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath -Dmdep.outputFile=target/classpath.txt

  port=$(( 20000 + RANDOM % 20000 ))
  step=(SLURM_JOB_ID=4243 SLURM_STEP_ID=0 SLURM_STEP_NODELIST=localhost SLURM_STEP_TASKS_PER_NODE=3
    SLURM_STEP_NUM_TASKS=3 SLURMD_NODENAME=localhost CLUSTERRESOLVER_SLURM_PORT_BASE=$port)
  local logs="$root/target/examples-tensorflow"
  mkdir -p "$logs"
  for rank in 0 1; do
    env -i PATH="$PATH" HOME="$HOME" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "${step[@]}" \
      SLURM_PROCID=$rank SLURM_LOCALID=$rank \
      "$dist/bin/cluster-resolver" tf-server --provider slurm >"$logs/rank$rank.out" 2>"$logs/rank$rank.err" &
    pids+=($!)
  done
  # shellcheck disable=SC2064 # the pids are known now
  trap "kill ${pids[*]} 2>/dev/null || true" EXIT
  for rank in 0 1; do
    for _ in $(seq 1 120); do
      grep -q '^tensorflow server' "$logs/rank$rank.out" && break
      kill -0 "${pids[$rank]}" 2>/dev/null || fail "examples/tensorflow: tf-server rank $rank exited: $(cat "$logs/rank$rank.err")"
      sleep 0.5
    done
    expected="tensorflow server /job:worker/replica:0/task:$rank at grpc://localhost:$((port + rank))"
    grep -qxF "$expected" "$logs/rank$rank.out" || fail "examples/tensorflow: rank $rank printed no line '$expected'"
    log "examples/tensorflow: $expected"
  done
  out=$(env -i PATH="$PATH" HOME="$HOME" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} "${step[@]}" \
    SLURM_PROCID=2 SLURM_LOCALID=2 \
    timeout 120 java -cp "examples/tensorflow/target/classes:$(cat examples/tensorflow/target/classpath.txt)" \
    com.example.tensorflow.MatmulOnEachWorker 2>"$logs/rank2.err")
  echo "$out"
  kill "${pids[@]}" 2>/dev/null || true
  trap - EXIT
  # Expected values: [[1,2],[3,4]] x [[5,6],[7,8+t]] by hand; devices: the step's tasks (TensorFlow lists
  # the connecting task's own first), plus /job:localhost for the session connected without filters.
  local w="/job:worker/replica:0/task"
  for line in "devices with filters:    [$w:2/device:CPU:0, $w:0/device:CPU:0, $w:1/device:CPU:0]" \
      "devices without filters: [/job:localhost/replica:0/task:0/device:CPU:0, $w:0/device:CPU:0, $w:1/device:CPU:0, $w:2/device:CPU:0]" \
      "matmul on $w:0/device:CPU:0: [19.0, 22.0, 43.0, 50.0]" \
      "matmul on $w:1/device:CPU:0: [19.0, 24.0, 43.0, 54.0]"; do
    grep -qxF "$line" <<< "$out" || fail "examples/tensorflow printed no line '$line'"
  done
  log "examples/tensorflow: connected to the step's TensorFlow servers and ran a matmul on each"
}

publish_modules
example_provider
example_app
example_tensorflow
