package io.clusterresolver.spi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * The validated, typed configuration of one provider: every declared property parsed from the
 * highest source that sets it, or its default, plus the environment variables the resolver reads.
 *
 * <p>Built by {@link #resolve(String, List, PropertySources)}, which reports every problem at once
 * — a value of the wrong type, a missing required property, a key under the provider's prefix that
 * no property declares (with the closest valid key as a suggestion) — in one
 * {@link IllegalArgumentException} that names each full key. Secret values never appear in
 * {@link #toString()} or in any message.
 */
public final class ResolverConfig {

  private final String provider;
  private final Map<String, ConfigProperty> declared;
  private final Map<String, Object> values;
  private final PropertySources sources;

  private ResolverConfig(
      String provider, Map<String, ConfigProperty> declared, Map<String, Object> values, PropertySources sources) {
    this.provider = provider;
    this.declared = declared;
    this.values = values;
    this.sources = sources;
  }

  /**
   * Reads and validates a provider's declared properties from the sources.
   *
   * @throws IllegalArgumentException listing every problem, one per line, each naming its key
   */
  public static ResolverConfig resolve(String provider, List<ConfigProperty> properties, PropertySources sources) {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(sources, "sources");
    Map<String, ConfigProperty> declared = new LinkedHashMap<>();
    for (ConfigProperty property : properties) {
      if (declared.put(property.name(), property) != null) {
        throw new IllegalStateException(
            "Provider '" + provider + "' declares property '" + property.name() + "' twice");
      }
    }
    List<String> problems = new ArrayList<>();
    for (PropertySources.Setting setting : sources.settingsFor(provider)) {
      if (declared.values().stream().noneMatch(setting::matches)) {
        problems.add(unknownSetting(provider, setting, declared));
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (ConfigProperty property : declared.values()) {
      String key = property.key(provider);
      Optional<String> raw = sources.get(key);
      try {
        if (raw.isPresent()) {
          values.put(property.name(), property.parse(key, raw.get()));
        } else if (property.defaultValue() != null) {
          values.put(property.name(), property.parse(key, property.defaultValue()));
        } else if (property.required()) {
          problems.add(key + " is required: set it as a property or as the environment variable "
              + property.environmentVariable(provider) + " (" + property.description() + ")");
        }
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage() + " (from " + sources.origin(key) + ")");
      }
    }
    if (!problems.isEmpty()) {
      throw problems(provider, problems);
    }
    return new ResolverConfig(
        provider, Collections.unmodifiableMap(declared), Collections.unmodifiableMap(values), sources);
  }

  /**
   * One exception for several configuration problems of a provider: the first line says how many,
   * each following line names a key and what to change.
   */
  public static IllegalArgumentException problems(String provider, List<String> problems) {
    StringBuilder message = new StringBuilder()
        .append("Invalid configuration for cluster resolver provider '").append(provider).append("': ")
        .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
    for (String problem : problems) {
      message.append(System.lineSeparator()).append("  - ").append(problem);
    }
    return new IllegalArgumentException(message.toString());
  }

  private static String unknownSetting(
      String provider, PropertySources.Setting setting, Map<String, ConfigProperty> declared) {
    List<String> candidates = new ArrayList<>();
    for (ConfigProperty property : declared.values()) {
      candidates.add(setting.environmentVariable ? property.environmentVariable(provider) : property.key(provider));
    }
    String message = (setting.environmentVariable ? "Unknown environment variable " : "Unknown property ")
        + setting.written;
    Optional<String> closest = Suggestions.closest(setting.written, candidates);
    if (closest.isPresent()) {
      return message + ": did you mean " + closest.get() + "?";
    }
    StringJoiner valid = new StringJoiner(", ");
    declared.values().forEach(p -> valid.add(p.name()));
    return message + ": provider '" + provider + "' reads " + (declared.isEmpty() ? "no properties" : valid);
  }

  /** The provider this configuration belongs to. */
  public String provider() {
    return provider;
  }

  /** The full key of a declared property, for messages. */
  public String key(String name) {
    return property(name).key(provider);
  }

  /** Whether a value was set by a source (not only defaulted). */
  public boolean isSet(String name) {
    return sources.get(key(name)).isPresent();
  }

  /** A {@code STRING} property, or {@code null} when unset and without default. */
  public String string(String name) {
    return (String) value(name, ConfigProperty.Type.STRING);
  }

  /** A {@code STRING} property, empty when unset and without default. */
  public Optional<String> optionalString(String name) {
    return Optional.ofNullable(string(name));
  }

  /** An {@code INT} property that has a default or is required. */
  public int integer(String name) {
    return optionalInt(name).orElseThrow(() -> new IllegalStateException(
        key(name) + " has no value and no default: use optionalInt"));
  }

  /** An {@code INT} property, empty when unset and without default. */
  public OptionalInt optionalInt(String name) {
    Integer value = (Integer) value(name, ConfigProperty.Type.INT);
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  /** A {@code BOOLEAN} property; unset without default is {@code false}. */
  public boolean bool(String name) {
    return Boolean.TRUE.equals(value(name, ConfigProperty.Type.BOOLEAN));
  }

  /** A {@code DURATION} property, or {@code null} when unset and without default. */
  public Duration duration(String name) {
    return (Duration) value(name, ConfigProperty.Type.DURATION);
  }

  /** A {@code LIST} property; unset without default is an empty list. */
  @SuppressWarnings("unchecked")
  public List<String> list(String name) {
    List<String> value = (List<String>) value(name, ConfigProperty.Type.LIST);
    return value == null ? List.of() : value;
  }

  /** A {@code MAP} property in the order given; unset without default is an empty map. */
  @SuppressWarnings("unchecked")
  public Map<String, String> map(String name) {
    Map<String, String> value = (Map<String, String>) value(name, ConfigProperty.Type.MAP);
    return value == null ? Map.of() : value;
  }

  /** The environment variables resolvers read (the process's, or the map given instead). */
  public Map<String, String> environment() {
    return sources.environment();
  }

  /** One environment variable, or {@code null} when unset. */
  public String getenv(String name) {
    return sources.environment().get(name);
  }

  /** The sources this configuration was read from. */
  public PropertySources sources() {
    return sources;
  }

  private Object value(String name, ConfigProperty.Type type) {
    ConfigProperty property = property(name);
    if (property.type() != type) {
      throw new IllegalStateException(key(name) + " is declared as " + property.type() + ", not " + type);
    }
    return values.get(name);
  }

  private ConfigProperty property(String name) {
    ConfigProperty property = declared.get(name);
    if (property == null) {
      throw new IllegalStateException("Provider '" + provider + "' does not declare property '" + name + "'");
    }
    return property;
  }

  /** The effective values, with secrets masked. */
  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner(", ", "ResolverConfig{" + provider + ": ", "}");
    for (ConfigProperty property : declared.values()) {
      Object value = values.get(property.name());
      if (value != null) {
        joiner.add(property.name() + "=" + (property.secret() ? "****" : value));
      }
    }
    return joiner.toString();
  }
}
