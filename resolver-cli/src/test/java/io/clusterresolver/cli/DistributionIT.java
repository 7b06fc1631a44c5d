package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

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

  /** With {@code environment}: only PATH, JAVA_HOME and these variables (no locale), like env -i. */
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
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
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
