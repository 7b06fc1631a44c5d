package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the conformance data is, and what is in it.
 *
 * <p>The directory is {@code -Dconformance.dir=DIR} when given, else the copy of the shared data in
 * this module's test resources ({@code src/test/resources/conformance}), so the project builds and
 * passes with nothing outside its own repository.
 *
 * <p>{@link #AREAS} maps every file pattern of the layout to the test class that runs it. An area
 * is added by adding its test class and one line here; a file that matches no pattern is reported
 * as unknown by {@link InventoryTest}.
 */
public final class ConformanceData {

  /** The system property naming another directory with the same layout. */
  public static final String PROPERTY = "conformance.dir";

  /**
   * File pattern (glob, relative to the directory) -> fully qualified name of the test class that
   * runs it, or {@code ""} for files that are documentation only.
   */
  public static final Map<String, String> AREAS = areas();

  private static Map<String, String> areas() {
    String pkg = ConformanceData.class.getPackageName() + ".";
    Map<String, String> areas = new LinkedHashMap<>();
    areas.put("README.md", "");
    areas.put("tf-vectors/clusterspec.json", pkg + "ClusterSpecConformanceTest");
    areas.put("tf-vectors/tfconfig.json", pkg + "TfConfigConformanceTest");
    areas.put("tf-vectors/simple.json", pkg + "SimpleConformanceTest");
    areas.put("tf-vectors/union.json", pkg + "UnionConformanceTest");
    // Areas of later issues: their test classes are added by the modules' authors.
    areas.put("tf-vectors/slurm.json", pkg + "SlurmConformanceTest");
    areas.put("tf-vectors/slurm-real.json", pkg + "SlurmRealConformanceTest");
    areas.put("tf-vectors/hostlist.json", pkg + "HostlistConformanceTest");
    areas.put("tf-vectors/devicefilters.json", pkg + "DeviceFiltersConformanceTest");
    areas.put("tf-vectors/serverdef.json", pkg + "ServerDefConformanceTest");
    areas.put("slurm-hostlist.json", pkg + "SlurmHostlistConformanceTest");
    areas.put("slurm-env/*.json", pkg + "SlurmEnvConformanceTest");
    areas.put("tf-vectors/gce.json", pkg + "GceConformanceTest");
    areas.put("tf-vectors/tpu.json", pkg + "TpuConformanceTest");
    areas.put("tf-vectors/kubernetes.json", pkg + "KubernetesConformanceTest");
    return Map.copyOf(areas);
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ConformanceData() {}

  /** The conformance directory. */
  public static Path directory() {
    String configured = System.getProperty(PROPERTY, "").trim();
    if (!configured.isEmpty()) {
      Path dir = Path.of(configured).toAbsolutePath();
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException(
            "-D" + PROPERTY + "=" + configured + " is not a directory: point it at a directory laid out like "
                + "the shared conformance data (README.md, tf-vectors/, slurm-env/, slurm-hostlist.json)");
      }
      return dir;
    }
    URL readme = ConformanceData.class.getClassLoader().getResource("conformance/README.md");
    if (readme == null) {
      throw new IllegalStateException("The conformance data copy is missing from the test resources");
    }
    try {
      return Path.of(readme.toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A file of the directory, if it exists. */
  public static Optional<Path> file(String relative) {
    Path path = directory().resolve(relative);
    return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
  }

  /** Every regular file of the directory, as relative paths with {@code /}, sorted. */
  public static List<String> files() {
    Path dir = directory();
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The files matching a glob pattern of {@link #AREAS}, sorted. */
  public static List<String> files(String glob) {
    PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
    return files().stream().filter(f -> matcher.matches(Path.of(f))).collect(Collectors.toList());
  }

  /** The area pattern a file belongs to, if any. */
  public static Optional<String> areaOf(String relative) {
    return AREAS.keySet().stream()
        .filter(glob -> FileSystems.getDefault().getPathMatcher("glob:" + glob).matches(Path.of(relative)))
        .findFirst();
  }

  /** A JSON file of the directory. */
  public static JsonNode readJson(String relative) {
    Path path = file(relative).orElseThrow(() -> new IllegalArgumentException(
        relative + " is not in " + directory()));
    try {
      return MAPPER.readTree(path.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + path + ": " + e.getMessage(), e);
    }
  }
}
