package io.clusterresolver.spi;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.internal.Suggestions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The validated, typed configuration of one provider: every declared property parsed from the
 * highest source that sets it, or its default, plus the environment variables the resolver reads.
 *
 * <p>Built by {@link #resolve(String, List, PropertySources)}, which reports every problem at once
 * — a value of the wrong type, a missing required property, a key under the provider's prefix that
 * no property declares (with the closest valid key as a suggestion) — in one
 * {@link ConfigurationException} that names each full key. Secret values never appear in
 * {@link #toString()} or in any message.
 */
public final class ResolverConfig {

  private final String provider;
  private final Map<String, ConfigProperty<?>> declared;
  private final Map<String, Object> values;
  private final PropertySources sources;

  private ResolverConfig(
      String provider, Map<String, ConfigProperty<?>> declared, Map<String, Object> values, PropertySources sources) {
    this.provider = provider;
    this.declared = declared;
    this.values = values;
    this.sources = sources;
  }

  /**
   * Reads and validates a provider's declared properties from the sources.
   *
   * @throws ConfigurationException listing every problem, one per line, each naming its key
   */
  public static ResolverConfig resolve(String provider, List<? extends ConfigProperty<?>> properties, PropertySources sources) {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(sources, "sources");
    Map<String, ConfigProperty<?>> declared = new LinkedHashMap<>();
    for (ConfigProperty<?> property : properties) {
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
    for (ConfigProperty<?> property : declared.values()) {
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
  public static ConfigurationException problems(String provider, List<String> problems) {
    return ConfigurationException.of(provider, problems);
  }

  private static String unknownSetting(
      String provider, PropertySources.Setting setting, Map<String, ConfigProperty<?>> declared) {
    List<String> candidates = new ArrayList<>();
    for (ConfigProperty<?> property : declared.values()) {
      candidates.add(setting.environmentVariable() ? property.environmentVariable(provider) : property.key(provider));
    }
    String message = (setting.environmentVariable() ? "Unknown environment variable " : "Unknown property ")
        + setting.written();
    Optional<String> closest = Suggestions.closest(setting.written(), candidates);
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
  public String key(ConfigProperty<?> property) {
    return declared(property).key(provider);
  }

  /** Whether a value was set by a source (not only defaulted). */
  public boolean isSet(ConfigProperty<?> property) {
    return sources.get(key(property)).isPresent();
  }

  /**
   * The value of a declared property: the highest source's, else its default; {@code null} when
   * neither exists, except that an unset list or map is empty and an unset boolean {@code false}.
   *
   * @throws IllegalStateException if the provider did not declare the property (a bug in it)
   */
  @SuppressWarnings("unchecked")
  public <T> T get(ConfigProperty<T> property) {
    Object value = values.get(declared(property).name());
    if (value != null) {
      return (T) value;
    }
    switch (property.type()) {
      case LIST:
        return (T) List.of();
      case MAP:
        return (T) Map.of();
      case BOOLEAN:
        return (T) Boolean.FALSE;
      default:
        return null;
    }
  }

  /** The value of a declared property, empty when it is unset and has no default. */
  public <T> Optional<T> find(ConfigProperty<T> property) {
    return Optional.ofNullable(values.containsKey(declared(property).name()) ? get(property) : null);
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

  private ConfigProperty<?> declared(ConfigProperty<?> property) {
    ConfigProperty<?> known = declared.get(property.name());
    if (known == null || known.type() != property.type()) {
      throw new IllegalStateException("Provider '" + provider + "' does not declare property '" + property.name()
          + "' as " + property.type() + ": add it to properties()");
    }
    return known;
  }

  /** The effective values, with secrets masked. */
  @Override
  public String toString() {
    StringJoiner joiner = new StringJoiner(", ", "ResolverConfig{" + provider + ": ", "}");
    for (ConfigProperty<?> property : declared.values()) {
      Object value = values.get(property.name());
      if (value != null) {
        joiner.add(property.name() + "=" + (property.secret() ? "****" : value));
      }
    }
    return joiner.toString();
  }
}
