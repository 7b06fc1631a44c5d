package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution as a user gets it: {@code bin/cluster-resolver}, {@code lib/} without test
 * libraries, {@code plugins/} that takes a provider jar with no other step, and {@code sim/} for
 * {@code --simulate}.
 */
class DistributionIT {

  private static Path built;

  @BeforeAll
  static void findDistribution() {
    built = Paths.get(System.getProperty("cli.home", "target/cluster-resolver-0.1.0-SNAPSHOT")).toAbsolutePath();
    assertThat(built.resolve("bin/cluster-resolver")).as("run 'mvn package' first").exists();
  }

  @Test
  void libHoldsNoTestLibrary() throws IOException {
    List<String> offending = new ArrayList<>();
    try (var jars = Files.list(built.resolve("lib"))) {
      for (Path jar : (Iterable<Path>) jars.filter(p -> p.toString().endsWith(".jar"))::iterator) {
        try (JarFile file = new JarFile(jar.toFile())) {
          for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
            String name = e.nextElement().getName();
            if (name.startsWith("org/junit/") || name.startsWith("org/assertj/") || name.startsWith("org/wiremock/")
                || name.startsWith("com/github/tomakehurst/wiremock/") || name.startsWith("io/clusterresolver/testkit/")) {
              offending.add(jar.getFileName() + "!" + name);
              break;
            }
          }
        }
      }
    }
    assertThat(offending).isEmpty();
    assertThat(built.resolve("sim")).isDirectoryContaining(p -> p.getFileName().toString().startsWith("wiremock"));
  }

  /**
   * The distribution's picocli holds the classes of picocli's own jar (the one the tests run on), each compiled for
   * Java 17 or newer: Java 17 verifies a Java 5 class file with the old verifier at every start (issue 23).
   */
  @Test
  void picocliIsTheSameClassesCompiledForJava17() throws Exception {
    Path maven = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path shipped = built.resolve("lib").resolve(maven.getFileName());
    Map<String, Integer> original = classVersions(maven);
    Map<String, Integer> distributed = classVersions(shipped);
    assertThat(distributed.keySet()).isEqualTo(original.keySet());
    assertThat(original.values()).as("picocli's own jar").contains(49);
    assertThat(distributed.values()).as("%s", shipped).allMatch(major -> major >= 61);
  }

  /** Class entry (outside META-INF) to the major version of its class file. */
  private static Map<String, Integer> classVersions(Path jar) throws IOException {
    Map<String, Integer> versions = new java.util.TreeMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
          try (var in = file.getInputStream(entry)) {
            byte[] header = in.readNBytes(8);
            versions.put(entry.getName(), ((header[6] & 0xff) << 8) | (header[7] & 0xff));
          }
        }
      }
    }
    return versions;
  }

  @Test
  void aProviderJarDroppedIntoPluginsIsFoundWithNoOtherStep(@TempDir Path tmp) throws Exception {
    Path home = tmp.resolve("cluster-resolver");
    copy(built, home);
    Path jar = home.resolve("plugins/tiny-provider.jar");
    buildTinyProvider(tmp.resolve("src"), home.resolve("lib"), jar);

    Run providers = run(home, "providers");
    assertThat(providers.code).as("%s", providers).isZero();
    assertThat(providers.out).contains("tiny");

    Run resolve = run(home, "resolve", "--provider", "tiny", "--format", "hostfile");
    assertThat(resolve.code).as("%s", resolve).isZero();
    assertThat(resolve.out.lines()).containsExactly("tiny-a", "tiny-b");
  }

  /**
   * {@code resolve --provider NAME} runs on the jars a resolve needs and that provider's only: for every provider the
   * {@code providers} command lists, the same answer as with the whole of lib/ (a copy without the provider's
   * list), on a class path without the other providers' modules, and the other providers' settings are still
   * theirs (no warning, no error), as with the whole of lib/.
   */
  @Test
  void aResolveOfOneProviderAnswersAsWithTheWholeLib(@TempDir Path tmp) throws Exception {
    Path whole = tmp.resolve("whole");
    copy(built, whole);
    Run listed = run(built, "providers");
    assertThat(listed.code).as("%s", listed).isZero();
    List<String> names = listed.out.lines().filter(l -> l.matches("\\S+  priority .*")).map(l -> l.split(" ")[0])
        .toList();
    assertThat(names).contains("aws", "azure", "gce", "kubernetes", "tpu", "local", "slurm", "tfconfig");
    List<String> otherModules = new ArrayList<>();
    for (String provider : names) {
      assertThat(built.resolve("lib/providers/" + provider + ".classpath")).as(provider).isRegularFile();
      Files.delete(whole.resolve("lib/providers/" + provider + ".classpath"));
    }
    Map<String, String> environment = Map.ofEntries(Map.entry(
        "TF_CONFIG", "{\"cluster\": {\"worker\": [\"w0:2222\", \"w1:2222\"]}, \"task\": {\"type\": \"worker\", \"index\": 1}}"),
        Map.entry("SLURM_JOB_ID", "7"), Map.entry("SLURM_JOB_NODELIST", "node[1-2]"),
        Map.entry("SLURM_STEP_NODELIST", "node[1-2]"), Map.entry("SLURM_PROCID", "1"), Map.entry("SLURM_NTASKS", "2"),
        Map.entry("SLURM_NODEID", "1"), Map.entry("SLURM_LOCALID", "0"), Map.entry("SLURM_TASKS_PER_NODE", "1(x2)"),
        Map.entry("SLURM_STEP_TASKS_PER_NODE", "1(x2)"));
    for (String provider : names) {
      List<String> args = new ArrayList<>(List.of("resolve", "--provider", provider, "--format", "json"));
      // Settings of two other providers than the one resolved: theirs, so neither warned about nor refused.
      args.add(provider.equals("azure") ? "-Dclusterresolver.kubernetes.selector=s" : "-Dclusterresolver.azure.resource-group=g");
      args.add(provider.equals("gce") ? "-Dclusterresolver.aws.region=eu-west-1" : "-Dclusterresolver.gce.project=p");
      if (List.of("aws", "azure", "gce", "kubernetes", "tpu").contains(provider)) {
        args.add("--simulate");
      }
      Map<String, String> shown = new java.util.HashMap<>(environment);
      shown.put(provider.equals("tpu") ? "CLUSTERRESOLVER_AZURE_SUBSCRIPTION" : "CLUSTERRESOLVER_TPU_ZONE", "z");
      Path loaded = tmp.resolve(provider + "-classes.txt"); // a file: this test reads stdout to its end first
      shown.put("CLUSTER_RESOLVER_JAVA_OPTS", "-XshowSettings:properties -Xlog:class+load=info:file=" + loaded);
      Run one = run(built, shown, args.toArray(String[]::new));
      Map<String, String> plain = new java.util.HashMap<>(environment);
      plain.put(provider.equals("tpu") ? "CLUSTERRESOLVER_AZURE_SUBSCRIPTION" : "CLUSTERRESOLVER_TPU_ZONE", "z");
      // No class data written behind the test's back; the whole of lib/ finds every provider.
      Path loadedByAll = tmp.resolve(provider + "-classes-all.txt");
      plain.put("CLUSTER_RESOLVER_JAVA_OPTS", "-Xlog:class+load=info:file=" + loadedByAll);
      Run all = run(whole, plain, args.toArray(String[]::new));
      assertThat(all.code).as("%s", all).isZero();
      assertThat(one.code).as("%s", one).isZero();
      assertThat(one.out).as(provider).isEqualTo(all.out);
      assertThat(all.err).doesNotContain("cluster-resolver: warning", "no provider named");
      assertThat(Files.readString(loadedByAll)).contains(" io.clusterresolver.aws.AwsClusterResolverProvider ");
      assertThat(one.err).doesNotContain("cluster-resolver: warning", "no provider named");
      List<String> settings = one.err.lines().toList(); // java.class.path = first, then one entry a line
      int at = settings.indexOf(settings.stream().filter(l -> l.contains("java.class.path = ")).findFirst().orElseThrow());
      List<String> jars = new ArrayList<>(List.of(settings.get(at).substring(settings.get(at).indexOf('=') + 1).trim()));
      for (int i = at + 1; i < settings.size() && !settings.get(i).contains(" = "); i++) {
        jars.add(settings.get(i).trim());
      }
      assertThat(jars).anyMatch(j -> j.contains("/lib/command/resolver-cli-")).noneMatch(j -> j.contains("/lib/resolver-cli-"));
      List<String> own = provider.equals("local") ? List.of("resolver-api-") : moduleJars(provider);
      assertThat(jars).as(provider).anyMatch(j -> own.stream().anyMatch(m -> j.contains("/lib/" + m)));
      try (var lib = Files.list(built.resolve("lib"))) {
        assertThat(jars.size()).as(provider).isLessThan((int) lib.filter(p -> p.toString().endsWith(".jar")).count());
      }
      // Nor what only serve, connect, relay and tf-server run on: every jar costs the first resource scan (issue 23).
      for (String notNeeded : List.of("resolver-runtime-", "resolver-proto-", "grpc-netty-shaded-", "grpc-core-")) {
        assertThat(jars).as(provider).noneMatch(j -> j.contains("/lib/" + notNeeded));
      }
      for (String other : names) {
        // tfconfig's module is also the command's (its TF_CONFIG writer); local's is resolver-api.
        if (!other.equals(provider) && !other.equals("tfconfig") && !moduleJars(other).isEmpty()) {
          otherModules.add(other);
          assertThat(jars).as(provider).noneMatch(j -> j.contains("/lib/resolver-" + other + "-"));
          // Not found another way either (a jar's manifest Class-Path would bring all of lib/ back).
          assertThat(Files.readString(loaded)).as(provider).doesNotContain(" io.clusterresolver." + other + ".");
        }
      }
    }
    assertThat(otherModules).as("provider modules checked as absent").isNotEmpty();
  }

  @Test
  void simulateRunsWithSimOnTheClassPathOnlyThen() throws Exception {
    Run simulated = run(built, "resolve", "--provider", "aws", "--simulate", "--format", "hostfile");
    assertThat(simulated.code).as("%s", simulated).isZero();
    assertThat(simulated.out.lines()).hasSize(4);
    assertThat(simulated.err).contains("simulated EC2");
  }

  @Test
  void outputIsUtf8WithNoLocaleSet() throws Exception {
    String tfConfig = "{\"cluster\": {\"w\u00f6rker\": [\"a:1\"]}, \"task\": {\"type\": \"w\u00f6rker\", \"index\": 0}}";
    Run run = run(built, Map.of("TF_CONFIG", tfConfig), "resolve", "--format", "tf-config");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.out).contains("w\u00f6rker").doesNotContain("?");
  }

  @Test
  void aResolveMapsTheClassesItsFirstSuccessfulRunLoaded(@TempDir Path cds) throws Exception {
    classDataFromTheFirstSuccessfulRun(System.getProperty("java.home"), cds, ".jsa");
  }

  @Test
  void onJava25TheClassesAreAnAheadOfTimeCache(@TempDir Path cds) throws Exception {
    Path java25 = Paths.get(System.getProperty("java25.home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
    assumeTrue(Files.isExecutable(java25.resolve("bin/java")), "no Java 25 at " + java25 + " (-Djava25.home)");
    classDataFromTheFirstSuccessfulRun(java25.toString(), cds, ".aot");
  }

  /**
   * The launcher's class data: a failed resolve keeps nothing; the first successful one writes the file of
   * its command (on Java 25 a background JVM finishes it after the command returned) without a word on
   * stdout; later runs map it and answer the same; another provider gets a file of its own; a damaged file
   * costs only speed.
   */
  private static void classDataFromTheFirstSuccessfulRun(String javaHome, Path cds, String suffix) throws Exception {
    Path home = Files.createDirectory(cds.resolve("home"));
    copy(built, home);
    Path dir = cds.resolve("data");
    String tfConfig = "{\"cluster\": {\"worker\": [\"w0:2222\", \"w1:2222\"]}, \"task\": {\"type\": \"worker\", \"index\": 1}}";
    Map<String, String> env = Map.of("JAVA_HOME", javaHome, "CLUSTER_RESOLVER_CDS_DIR", dir.toString(), "TF_CONFIG",
        tfConfig);

    Run failed = run(home, Map.of("JAVA_HOME", javaHome, "CLUSTER_RESOLVER_CDS_DIR", dir.toString(), "TF_CONFIG",
        "{not json"), "resolve", "--provider", "tfconfig", "--format", "hostfile");
    assertThat(failed.code).as("%s", failed).isEqualTo(2);
    assertThat(filesEndingWith(dir, suffix)).isEmpty();

    Run first = run(home, env, "resolve", "--provider", "tfconfig", "--format", "hostfile");
    assertThat(first.code).as("%s", first).isZero();
    assertThat(first.out.lines()).containsExactly("w0", "w1");
    assertThat(first.err).doesNotContain("warning");
    List<Path> written = awaitFiles(dir, suffix, 1);
    assertThat(written).hasSize(1);
    assertThat(Files.size(written.get(0))).isPositive();

    Run mapped = run(home, env, "resolve", "--provider", "tfconfig", "--format", "hostfile");
    assertThat(mapped.code).as("%s", mapped).isZero();
    assertThat(mapped.out).isEqualTo(first.out);
    assertThat(mapped.err).isEmpty();

    Run local = run(home, env, "resolve", "--provider", "local", "--format", "hostfile");
    assertThat(local.code).as("%s", local).isZero();
    assertThat(awaitFiles(dir, suffix, 2)).hasSize(2);

    Files.setPosixFilePermissions(written.get(0), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    Files.write(written.get(0), new byte[4096]);
    Run damaged = run(home, env, "resolve", "--provider", "tfconfig", "--format", "hostfile");
    assertThat(damaged.code).as("%s", damaged).isZero();
    assertThat(damaged.out).isEqualTo(first.out);
  }

  /** The jar of module resolver-NAME in the distribution's lib/ (none for a provider without its own module). */
  private static List<String> moduleJars(String name) throws IOException {
    try (var lib = Files.list(built.resolve("lib"))) {
      return lib.map(p -> p.getFileName().toString()).filter(f -> f.matches("resolver-" + name + "-[0-9].*\\.jar"))
          .toList();
    }
  }

  private static List<Path> filesEndingWith(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /**
   * The class-data files once {@code count} are there, or once no writer holds a lock (Java 25's cache is
   * written by a background JVM, which takes a minute on a busy machine), within 5 minutes.
   */
  private static List<Path> awaitFiles(Path dir, String suffix, int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    List<Path> found = filesEndingWith(dir, suffix);
    while (found.size() < count && !filesEndingWith(dir, ".lock").isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(200);
      found = filesEndingWith(dir, suffix);
    }
    return found;
  }

  /** A provider written against resolver-api alone, compiled here, as a third party would ship it. */
  private static void buildTinyProvider(Path src, Path lib, Path jar) throws IOException {
    Path source = src.resolve("tiny/TinyProvider.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, String.join("\n",
        "package tiny;",
        "import io.clusterresolver.*;",
        "import io.clusterresolver.spi.*;",
        "import java.util.*;",
        "public final class TinyProvider implements ClusterResolverProvider {",
        "  public String name() { return \"tiny\"; }",
        "  public int priority() { return 1; }",
        "  public boolean isAvailable(ResolverContext context) { return false; }",
        "  public List<ConfigProperty<?>> properties() { return List.of(); }",
        "  public ClusterResolver create(ResolverConfig config) {",
        "    return SimpleClusterResolver.builder(ClusterSpec.of(Map.of(\"worker\", List.of(\"tiny-a:1\", \"tiny-b:1\"))))",
        "        .taskType(\"worker\").taskId(0).build();",
        "  }",
        "}"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Path classes = src.resolve("classes");
    Path api;
    try (var jars = Files.list(lib)) {
      api = jars.filter(p -> p.getFileName().toString().startsWith("resolver-api-")).findFirst().orElseThrow();
    }
    int code = javac.run(null, null, null, "-d", classes.toString(), "-cp", api.toString(), source.toString());
    assertThat(code).as("javac").isZero();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("tiny/TinyProvider.class"));
      out.write(Files.readAllBytes(classes.resolve("tiny/TinyProvider.class")));
      out.closeEntry();
      out.putNextEntry(new JarEntry("META-INF/services/io.clusterresolver.spi.ClusterResolverProvider"));
      out.write("tiny.TinyProvider\n".getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
        // tensorflow/ (160 MB, tf-server only) has no part in what these copies test.
        if (dir.getFileName().toString().equals(".cds") || dir.getFileName().toString().equals("tensorflow")) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        Files.createDirectories(to.resolve(from.relativize(dir).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  private static final class Run {
    int code;
    String out;
    String err;

    @Override
    public String toString() {
      return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }
  }

  private static Run run(Path home, String... args) throws Exception {
    return run(home, null, args);
  }

  /** With {@code environment}: only PATH, JAVA_HOME (this JVM's unless given) and these variables, like env -i. */
  private static Run run(Path home, Map<String, String> environment, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(home.resolve("bin/cluster-resolver").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("CLUSTERRESOLVER_") || k.equals("TF_CONFIG")
        || k.startsWith("SLURM_"));
    if (environment != null) {
      String path = builder.environment().get("PATH");
      builder.environment().clear();
      builder.environment().put("PATH", path);
      builder.environment().putAll(environment);
    }
    if (environment == null || !environment.containsKey("JAVA_HOME")) {
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    }
    Process process = builder.start();
    process.getOutputStream().close();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("finished").isTrue();
    Run run = new Run();
    run.code = process.exitValue();
    run.out = new String(out, StandardCharsets.UTF_8);
    run.err = new String(err, StandardCharsets.UTF_8);
    return run;
  }

}
