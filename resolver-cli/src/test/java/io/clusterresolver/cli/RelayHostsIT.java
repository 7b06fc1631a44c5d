package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.TestHosts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The relay and the shared listings as they run: real {@code cluster-resolver} processes (the
 * distribution's jar) on separate hosts (Linux network namespaces this test makes and removes, each
 * with its own address on a bridge), several JVMs per host sharing a listing folder, default settings
 * ({@code relay-serve=true}), the simulated EC2 a process on a host of its own, and a hostile process
 * that binds the relay's address first and forges, stalls or floods. Host 0 is the cloud's, host 1
 * the relay's ({@code 198.18.0.2:7777}), hosts 2 and 3 the job's others.
 *
 * <p>Skipped, saying why, only where namespaces cannot be made; never under {@code CI=true}.
 */
class RelayHostsIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int INSTANCES = 40;
  private static final int RELAY_PORT = 7777;

  private static TestHosts hosts;
  private static Process cloud;
  private static BufferedReader cloudOut;
  private static Writer cloudIn;
  private static final Map<String, String> CLOUD_PROPERTIES = new LinkedHashMap<>();
  private static List<String> expected;
  private static Path work;
  private static Path secretFile;
  private static String java;
  private static Path jar;

  private final List<Process> started = new ArrayList<>();
  private Path scenario;

  @BeforeAll
  static void hostsAndCloud() throws Exception {
    Optional<String> why = TestHosts.unavailable();
    if (why.isPresent()) {
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true, but network namespaces cannot be made: " + why.get());
      }
      Assumptions.abort("network namespaces cannot be made here (" + why.get() + "); CI runs this as root");
    }
    jar = Paths.get(System.getProperty("cli.jar", "target/cluster-resolver.jar")).toAbsolutePath();
    assertThat(jar).as("run 'mvn package' first").exists();
    java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    work = Files.createTempDirectory("relay-hosts");
    secretFile = work.resolve("relay-secret");
    Files.writeString(secretFile, "relay-hosts-it-" + Long.toHexString(System.nanoTime()) + "-0123456789abcdef\n");
    Files.setPosixFilePermissions(secretFile, PosixFilePermissions.fromString("rw-------"));
    hosts = TestHosts.create(4);

    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    cloud = new ProcessBuilder(hosts.on(0, List.of(java, "-Xmx256m", "-cp", classPath, NetnsCloud.class.getName(),
        hosts.address(0), "8080", Integer.toString(INSTANCES))))
        .redirectError(work.resolve("cloud.err").toFile()).start();
    cloudOut = new BufferedReader(new InputStreamReader(cloud.getInputStream(), StandardCharsets.UTF_8));
    cloudIn = new OutputStreamWriter(cloud.getOutputStream(), StandardCharsets.UTF_8);
    for (String line = cloudOut.readLine(); !"ready".equals(line); line = cloudOut.readLine()) {
      if (line == null) {
        fail("the simulated cloud did not start: " + Files.readString(work.resolve("cloud.err")));
      } else if (line.startsWith("property ")) {
        String[] kv = line.substring("property ".length()).split("=", 2);
        CLOUD_PROPERTIES.put(kv[0], kv[1]);
      } else if (line.startsWith("expected ")) {
        expected = Arrays.asList(line.substring("expected ".length()).split(","));
      }
    }
    assertThat(expected).hasSize(INSTANCES);
  }

  @AfterAll
  static void removeHosts() throws IOException {
    if (cloud != null) {
      cloud.getOutputStream().close();
      try {
        if (!cloud.waitFor(10, TimeUnit.SECONDS)) {
          cloud.destroyForcibly();
        }
      } catch (InterruptedException e) {
        cloud.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    if (hosts != null) {
      hosts.close();
    }
    if (work != null) {
      try (Stream<Path> files = Files.walk(work)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  @AfterEach
  void stopProcesses() {
    for (Process p : started) {
      p.destroyForcibly();
    }
  }

  private void scenario(TestInfo info) throws IOException {
    scenario = Files.createDirectories(work.resolve(info.getTestMethod().orElseThrow().getName()));
  }

  private static int calls() throws IOException {
    cloudIn.write("calls\n");
    cloudIn.flush();
    String line = cloudOut.readLine();
    assertThat(line).startsWith("calls ");
    return Integer.parseInt(line.substring("calls ".length()));
  }

  private String relay() {
    return hosts.address(1) + ":" + RELAY_PORT;
  }

  /** {@code cluster-resolver COMMAND} on {@code host} with the job's properties and {@code more}. */
  private List<String> command(int host, String command, String... more) {
    List<String> c = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
        "-jar", jar.toString()));
    c.addAll(List.of(command.split(" ")));
    c.addAll(List.of("--provider", "aws"));
    Map<String, String> p = new LinkedHashMap<>(CLOUD_PROPERTIES);
    p.put("clusterresolver.aws.relay", relay());
    p.put("clusterresolver.aws.relay-secret-file", secretFile.toString());
    // Every process of a host shares this host's folder; hosts never share one (they share a disk here).
    p.put("clusterresolver.aws.shared-listing-dir", scenario.resolve("host-" + host).toString());
    for (int i = 0; i < more.length; i += 2) {
      p.put("clusterresolver.aws." + more[i], more[i + 1]);
    }
    p.forEach((k, v) -> c.addAll(List.of("-D", k + "=" + v)));
    return hosts.on(host, c);
  }

  private Process start(int host, String name, List<String> command) throws IOException {
    Process p = new ProcessBuilder(command)
        .redirectOutput(scenario.resolve(name + ".out").toFile())
        .redirectError(scenario.resolve(name + ".err").toFile())
        .start();
    started.add(p);
    return p;
  }

  /** A process that says {@code ready}-like {@code line} on standard output before the test goes on. */
  private Process startAndAwait(int host, String name, List<String> command, String line) throws Exception {
    Process p = start(host, name, command);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.readString(scenario.resolve(name + ".out")).contains(line)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        fail(name + " did not say '" + line + "': " + Files.readString(scenario.resolve(name + ".err")));
      }
      Thread.sleep(100);
    }
    return p;
  }

  private Process hostile(int host, String name, String... args) throws Exception {
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> c = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", classPath, HostileRelay.class.getName()));
    c.addAll(List.of(args));
    return startAndAwait(host, name, hosts.on(host, c), "ready");
  }

  /** What one resolve process did. */
  private record Run(String name, int code, String out, String err) {
    List<String> cluster() throws IOException {
      JsonNode workers = JSON.readTree(out).path("cluster").path("worker");
      List<String> addresses = new ArrayList<>();
      workers.forEach(a -> addresses.add(a.asText()));
      return addresses;
    }
  }

  /** Starts {@code perHost} resolves on each host at once and waits for all (bounded). */
  private List<Run> resolveOn(List<Integer> onHosts, int perHost, String... more) throws Exception {
    List<String> names = new ArrayList<>();
    List<Process> processes = new ArrayList<>();
    for (int host : onHosts) {
      for (int i = 0; i < perHost; i++) {
        String name = "resolve-h" + host + "-" + i;
        names.add(name);
        processes.add(start(host, name, command(host, "resolve --format json", more)));
      }
    }
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      boolean done = p.waitFor(240, TimeUnit.SECONDS);
      String name = names.get(i);
      runs.add(new Run(name, done ? p.exitValue() : -1, Files.readString(scenario.resolve(name + ".out")),
          Files.readString(scenario.resolve(name + ".err"))));
    }
    return runs;
  }

  private void assertRightClusterEverywhere(List<Run> runs) throws IOException {
    for (Run run : runs) {
      assertThat(run.code()).as("%s", run).isZero();
      assertThat(run.cluster()).as("%s", run).containsExactlyElementsOf(expected);
      assertThat(run.out()).as("%s", run).doesNotContain("6.6.6.");
    }
  }

  @Test
  void defaultSettingsAcrossThreeHostsGiveEveryProcessTheClusterFromOneListing(TestInfo info) throws Exception {
    scenario(info);
    int before = calls();
    // The relay's process on host 1 (what a chief's long-lived process is), then eight resolves with the
    // defaults (relay-serve=true): the two on host 1 cannot bind and ask the relay process of their own host.
    startAndAwait(1, "relay", command(1, "relay --for 600s", "relay-max-age", "10m"), "Relaying aws listings");
    int perHost = Integer.getInteger("relayHosts.perHost", 3);
    List<Run> runs = resolveOn(List.of(1, 2, 3), perHost, "relay-max-age", "10m", "shared-listing-max-age", "10m",
        "timeout", "90s");
    assertRightClusterEverywhere(runs);
    int listingCalls = calls() - before;
    System.out.printf("relay-hosts: the relay and %d resolve processes on 3 hosts, right cluster on all; %d"
        + " DescribeInstances call(s)%n", runs.size(), listingCalls);
    assertThat(listingCalls).as("one listing (one page of %d) for every process of every host", INSTANCES)
        .isEqualTo(1);
  }

  @Test
  void aForgerThatBindsTheRelayAddressFirstIsNeverBelieved(TestInfo info) throws Exception {
    scenario(info);
    hostile(1, "forger", "forge", hosts.address(1), Integer.toString(RELAY_PORT));
    List<Run> runs = resolveOn(List.of(1, 2), 2, "timeout", "60s");
    assertRightClusterEverywhere(runs);
    for (int host : List.of(1, 2)) {
      // One process per host asks (the others take its listing through the host's folder); it says why it did not.
      assertThat(runs).filteredOn(r -> r.name().startsWith("resolve-h" + host)).anySatisfy(r -> assertThat(r.err())
          .contains("WARNING").contains("the relay " + relay() + " answered without proving the relay secret"));
    }
    assertThat(Files.readString(scenario.resolve("forger.out"))).as("the forger was asked").contains("query ");
  }

  @Test
  void aRelayThatStallsMidAnswerCostsTheWaitNotTheJob(TestInfo info) throws Exception {
    scenario(info);
    hostile(1, "staller", "stall", hosts.address(1), Integer.toString(RELAY_PORT));
    long start = System.nanoTime();
    List<Run> runs = resolveOn(List.of(2, 3), 2, "timeout", "15s");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    assertRightClusterEverywhere(runs);
    assertThat(runs).anySatisfy(r -> assertThat(r.err()).contains("the relay " + relay() + " did not answer within"));
    assertThat(seconds).as("bounded by relay-wait (5 s) plus a listing and JVM starts").isLessThan(120);
  }

  @Test
  void aFloodWithoutTheSecretCostsNoListingAndTheJobStillResolves(TestInfo info) throws Exception {
    scenario(info);
    // The attacker learns the query digest (it follows from the configuration) from a host that asks it.
    hostile(3, "sniffer", "forge", hosts.address(3), "7001");
    resolveOn(List.of(3), 1, "relay", hosts.address(3) + ":7001", "timeout", "30s");
    String digest = Files.readAllLines(scenario.resolve("sniffer.out")).stream().filter(l -> l.startsWith("query "))
        .findFirst().orElseThrow().substring("query ".length());

    startAndAwait(1, "relay", command(1, "relay --for 300s"), "Relaying aws listings");
    int before = calls();
    Process flood = start(3, "flood", hosts.on(3, List.of(java, "-Xmx128m", "-cp",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
        HostileRelay.class.getName(), "flood", hosts.address(1), Integer.toString(RELAY_PORT), digest, "8")));
    List<Run> runs = resolveOn(List.of(2), 2, "timeout", "60s");
    assertThat(flood.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertRightClusterEverywhere(runs);
    String flooded = Files.readString(scenario.resolve("flood.out"));
    System.out.printf("relay-hosts flood: %s; DescribeInstances calls during it: %d%n", flooded.strip(),
        calls() - before);
    assertThat(flooded).contains("HTTP 401").doesNotContain("HTTP 200");
    assertThat(calls() - before).as("listings only for the job's own requests (max-age 0: one per question)")
        .isBetween(1, 2);
  }
}
