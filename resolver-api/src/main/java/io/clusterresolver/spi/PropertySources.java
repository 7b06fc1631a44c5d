package io.clusterresolver.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Where property values come from, highest first: the map given in code, Java system properties,
 * environment variables ({@code CLUSTERRESOLVER_AWS_REGION} for {@code clusterresolver.aws.region}),
 * and a properties file. Also holds the environment variables resolvers read (such as
 * {@code TF_CONFIG} or {@code SLURM_*}). Immutable.
 */
public final class PropertySources {

  private final Map<String, String> explicit;
  private final Map<String, String> systemProperties;
  private final Map<String, String> environment;
  private final Map<String, String> file;

  private PropertySources(
      Map<String, String> explicit,
      Map<String, String> systemProperties,
      Map<String, String> environment,
      Map<String, String> file) {
    this.explicit = copy(explicit, "properties");
    this.systemProperties = copy(systemProperties, "system properties");
    // A read-only view, not a copy: resolvers re-read the environment on every call, so a test or
    // simulation that changes the map it gave sees the change (the process environment never changes).
    this.environment = Collections.unmodifiableMap(Objects.requireNonNull(environment, "environment"));
    this.file = copy(file, "file properties");
  }

  /**
   * Sources from four layers, highest first.
   *
   * @param explicit properties given in code (or {@code -D} on the command line)
   * @param systemProperties Java system properties
   * @param environment environment variables: both {@code CLUSTERRESOLVER_*} settings and the
   *     variables resolvers read
   * @param file properties from a file
   */
  public static PropertySources of(
      Map<String, String> explicit,
      Map<String, String> systemProperties,
      Map<String, String> environment,
      Map<String, String> file) {
    return new PropertySources(explicit, systemProperties, environment, file);
  }

  /** The map given in code over this process's system properties and environment. */
  public static PropertySources system(Map<String, String> explicit) {
    return of(explicit, systemProperties(), System.getenv(), Map.of());
  }

  /** The map given in code over system properties, with the given environment in place of the process's. */
  public static PropertySources withEnvironment(Map<String, String> explicit, Map<String, String> environment) {
    return of(explicit, systemProperties(), environment, Map.of());
  }

  /** A copy with the properties of a file as the lowest layer. */
  public PropertySources withFile(Map<String, String> fileProperties) {
    return new PropertySources(explicit, systemProperties, environment, fileProperties);
  }

  /** A copy whose explicit layer is {@code overrides} over this one's explicit layer. */
  public PropertySources withOverrides(Map<String, String> overrides) {
    Map<String, String> merged = new LinkedHashMap<>(explicit);
    merged.putAll(overrides);
    return new PropertySources(merged, systemProperties, environment, file);
  }

  /** The value of a full key from the highest layer that sets it. */
  public Optional<String> get(String key) {
    String value = explicit.get(key);
    if (value == null) {
      value = systemProperties.get(key);
    }
    if (value == null) {
      value = environment.get(ConfigProperty.environmentVariableOf(key));
    }
    if (value == null) {
      value = file.get(key);
    }
    return Optional.ofNullable(value);
  }

  /** Where a key's value comes from, for messages: {@code -D/code}, {@code system property}, … */
  public String origin(String key) {
    if (explicit.containsKey(key)) {
      return "property " + key;
    }
    if (systemProperties.containsKey(key)) {
      return "system property " + key;
    }
    String variable = ConfigProperty.environmentVariableOf(key);
    if (environment.containsKey(variable)) {
      return "environment variable " + variable;
    }
    return "property file entry " + key;
  }

  /**
   * The environment variables resolvers read: a read-only view of the map given (or of the
   * process environment), so changes the caller makes to that map are seen.
   */
  public Map<String, String> environment() {
    return environment;
  }

  /**
   * Every setting addressed to a provider, as {@code (how it was written, property name)}: keys
   * under {@code clusterresolver.<provider>.} and variables under {@code CLUSTERRESOLVER_<PROVIDER>_}.
   * Environment names are given in their written form; the caller maps them back.
   */
  List<Setting> settingsFor(String provider) {
    String prefix = ConfigProperty.PREFIX + provider + ".";
    String envPrefix = ConfigProperty.environmentVariableOf(prefix);
    List<Setting> settings = new ArrayList<>();
    for (Map<String, String> layer : List.of(explicit, systemProperties, file)) {
      for (String key : layer.keySet()) {
        if (key.startsWith(prefix)) {
          settings.add(new Setting(key, key.substring(prefix.length()), false));
        }
      }
    }
    for (String variable : environment.keySet()) {
      if (variable != null && variable.startsWith(envPrefix)) {
        settings.add(new Setting(variable, variable.substring(envPrefix.length()), true));
      }
    }
    return settings;
  }

  /**
   * One setting addressed to a provider: its written key, and the name part after the prefix.
   *
   * @param environmentVariable whether it is written as an environment variable ({@code CLUSTERRESOLVER_…})
   */
  record Setting(String written, String name, boolean environmentVariable) {

    boolean matches(ConfigProperty<?> property) {
      return environmentVariable
          ? name.equals(property.name().toUpperCase(Locale.ROOT).replace('-', '_'))
          : name.equals(property.name());
    }
  }

  private static Map<String, String> systemProperties() {
    Properties properties = System.getProperties();
    Map<String, String> map = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      if (name.startsWith(ConfigProperty.PREFIX)) {
        map.put(name, properties.getProperty(name));
      }
    }
    return map;
  }

  private static Map<String, String> copy(Map<String, String> map, String what) {
    Objects.requireNonNull(map, what);
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : map.entrySet()) {
      if (entry.getKey() != null && entry.getValue() != null) {
        copy.put(entry.getKey(), entry.getValue());
      }
    }
    return Collections.unmodifiableMap(copy);
  }
}
