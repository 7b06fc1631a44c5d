package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The {@code -D key=value} and {@code --config FILE} options: where provider properties come from
 * on the command line. A mixin, so every command that creates a resolver takes them the same way.
 *
 * <p>Precedence, highest first: {@code -D}, Java system properties, environment variables
 * ({@code CLUSTERRESOLVER_<PROVIDER>_<NAME>}), the {@code --config} file.
 */
public final class PropertyOptions {

  // The model is built in code, not read from annotations at every start (issue 23): see model().
  private final OptionSpec properties = OptionSpec.builder("-D")
      .paramLabel("KEY=VALUE")
      .type(Map.class)
      .auxiliaryTypes(String.class, String.class)
      .description("A provider property, such as -D clusterresolver.tfconfig.rpc-layer=grpc."
          + " Repeatable; overrides every other source.")
      .build();

  private final OptionSpec configFile = OptionSpec.builder("--config")
      .paramLabel("FILE")
      .type(Path.class)
      .description("A properties file of provider properties (clusterresolver.<provider>.<name>=value);"
          + " the lowest-precedence source.")
      .build();

  private final CommandSpec model = CommandSpec.create().addOption(properties).addOption(configFile);

  /** The {@code --config} file last read ({@code null}: none yet), and its properties. */
  private Path readFile;
  private Map<String, String> fileProperties = Map.of();

  /**
   * These options as a mixin, for a command to add once: {@code @Mixin(name = "propertyOptions") CommandSpec},
   * which picocli takes as it is, or {@link CommandSpec#addMixin(String, CommandSpec)}.
   */
  CommandSpec model() {
    return model;
  }

  private Map<String, String> given() {
    Map<String, String> given = properties.getValue(); // null until a -D is given
    return given == null ? Map.of() : given;
  }

  private Path configFile() {
    return configFile.getValue();
  }

  /** The {@code -D} properties, in the order given. */
  public Map<String, String> properties() {
    return Map.copyOf(given());
  }

  /**
   * The property sources of a command: {@code extra} and then {@code -D} over the system properties,
   * the environment and the {@code --config} file.
   *
   * @param extra properties the command derives from its own options (such as {@code --task-type});
   *     {@code -D} overrides them
   * @throws IllegalArgumentException if the file cannot be read, or a key is not addressed to a
   *     known provider
   */
  public PropertySources sources(Map<String, String> environment, Map<String, String> extra) {
    return sources(environment, extra, null);
  }

  /**
   * Like {@link #sources(Map, Map)}, with the providers on the class path when the caller has found them already
   * ({@code null}: found here if needed): finding them reads every jar's service file, once is enough.
   */
  PropertySources sources(Map<String, String> environment, Map<String, String> extra,
      List<ClusterResolverProvider> onClassPath) {
    Map<String, String> fileProperties = fileProperties();
    checkKeys(given(), "-D ", onClassPath);
    checkKeys(fileProperties, configFile() + ": ", onClassPath);
    Map<String, String> explicit = new LinkedHashMap<>(extra);
    explicit.putAll(given());
    return PropertySources.withEnvironment(explicit, environment).withFile(fileProperties);
  }

  /** The largest --config file read: a properties file of every provider's keys is a few KiB. */
  static final int MAX_CONFIG_BYTES = 1 << 20;

  /** The keys given with {@code -D}. */
  java.util.Set<String> commandLineKeys() {
    return given().keySet();
  }

  /** The keys of the {@code --config} file. */
  java.util.Set<String> fileKeys() {
    return fileProperties().keySet();
  }

  /**
   * The {@code --config} file's properties, read once per command: a resolve asks for them up to three times
   * (its sources, those with {@code --task-type}, the unknown-key warnings), and the file is the same.
   */
  private Map<String, String> fileProperties() {
    Path configFile = configFile();
    if (configFile == null) {
      return Map.of();
    }
    if (!configFile.equals(readFile)) {
      fileProperties = readConfigFile(configFile);
      readFile = configFile;
    }
    return fileProperties;
  }

  private static Map<String, String> readConfigFile(Path file) {
    Properties loaded = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      // Bounded: --config /dev/zero (or a wrong, huge file) must not read until memory runs out.
      byte[] bytes = in.readNBytes(MAX_CONFIG_BYTES + 1);
      if (bytes.length > MAX_CONFIG_BYTES) {
        throw new ConfigurationException("--config " + file + ": larger than " + (MAX_CONFIG_BYTES >> 10)
            + " KiB; give a properties file with lines like clusterresolver.<provider>.<name>=value");
      }
      CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
      String text;
      try {
        text = utf8.decode(ByteBuffer.wrap(bytes)).toString();
      } catch (CharacterCodingException e) {
        throw new ConfigurationException("--config " + file + ": not UTF-8 text; save it as UTF-8");
      }
      loaded.load(new StringReader(text));
    } catch (NoSuchFileException e) {
      throw new ConfigurationException("--config " + file + ": no such file. Give the path of a"
          + " properties file with lines like clusterresolver.<provider>.<name>=value.");
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigurationException("--config " + file + ": cannot read it as a properties file: "
          + e.getMessage());
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String key : new TreeSet<>(loaded.stringPropertyNames())) {
      map.put(key, loaded.getProperty(key));
    }
    return map;
  }

  /**
   * Whether every key is addressed to one of these providers: then the distribution's catalog, which only adds
   * names for the error below, need not be read (issue 23: a cold start's work).
   */
  private static boolean addressedTo(Set<String> providers, Map<String, String> properties) {
    for (String key : properties.keySet()) {
      if (!key.startsWith(ConfigProperty.PREFIX)) {
        return false;
      }
      String rest = key.substring(ConfigProperty.PREFIX.length());
      int dot = rest.indexOf('.');
      if (!providers.contains(dot < 0 ? rest : rest.substring(0, dot))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every key given on the command line or in the file must be addressed to a provider on the
   * classpath: a typo in the provider part would otherwise be ignored silently. The provider that
   * is used checks the name part itself (with a "did you mean" suggestion).
   */
  private static void checkKeys(Map<String, String> properties, String where,
      List<ClusterResolverProvider> onClassPath) {
    if (properties.isEmpty()) {
      return;
    }
    Set<String> known = new TreeSet<>();
    for (ClusterResolverProvider provider : onClassPath != null ? onClassPath : ClusterResolvers.providers()) { // a loop: no lambda at a cold start
      known.add(provider.name());
    }
    if (!addressedTo(known, properties)) {
      known.addAll(ProviderCatalog.ofDistribution().names()); // the distribution's, on the class path or not
    }
    List<String> problems = new ArrayList<>();
    for (String key : properties.keySet()) {
      if (!key.startsWith(ConfigProperty.PREFIX)) {
        // Not echoed: a line without '=' (a pasted token) becomes a key of that whole text.
        problems.add(where + "a key that does not start with " + ConfigProperty.PREFIX + " (not shown: it may be"
            + " a secret): property keys are written in full, clusterresolver.<provider>.<name> (for example"
            + " clusterresolver.tfconfig.rpc-layer=grpc)");
        continue;
      }
      String rest = key.substring(ConfigProperty.PREFIX.length());
      int dot = rest.indexOf('.');
      String provider = dot < 0 ? rest : rest.substring(0, dot);
      if (!known.contains(provider)) {
        problems.add(where + key + ": no provider named '" + provider + "'. Known providers: "
            + String.join(", ", known));
      } else if (dot < 0 || dot == rest.length() - 1) {
        problems.add(where + key + ": the key names no property: write clusterresolver."
            + provider + ".<name> (run 'cluster-resolver providers' for the names)");
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigurationException(String.join(System.lineSeparator(), problems));
    }
  }
}
