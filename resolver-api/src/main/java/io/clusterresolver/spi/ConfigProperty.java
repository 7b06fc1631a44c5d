package io.clusterresolver.spi;

import io.clusterresolver.ConfigurationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The declaration of one property a provider reads: its name, type, default, whether it is
 * required or secret, and what it means. Providers list these in
 * {@link ClusterResolverProvider#properties()}; the documentation tables and the validation of
 * user input are produced from them, so they cannot drift.
 *
 * <p>The full key of a property is {@code clusterresolver.<provider>.<name>}; as an environment
 * variable it is the key in upper case with dots and dashes turned into underscores
 * ({@code clusterresolver.aws.tasks-per-instance} is {@code CLUSTERRESOLVER_AWS_TASKS_PER_INSTANCE}).
 *
 * <p>The type parameter is the Java type of the parsed value, so a provider reads a property as
 * {@code config.get(REGION)} with no name string and no cast:
 *
 * <pre>{@code
 * static final ConfigProperty<Integer> PORT = ConfigProperty.integer("port")
 *     .defaultValue("8888").range(1, 65535).description("Port of the first task").build();
 * int port = config.get(PORT);
 * }</pre>
 *
 * @param <T> the type of the parsed value: {@code String}, {@code Integer}, {@code Boolean},
 *     {@code Duration}, {@code List<String>} or {@code Map<String, String>}
 */
public final class ConfigProperty<T> {

  /** The common prefix of every property key. */
  public static final String PREFIX = "clusterresolver.";

  private static final Pattern NAME = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
  /** The longest duration a property takes: any deadline made from it stays far from overflowing. */
  private static final Duration MAX_DURATION = Duration.ofDays(365);
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");
  private static final Pattern ASCII_INTEGER = Pattern.compile("[+-]?[0-9]+");

  /** The type of a property's value, and how its text is parsed. */
  public enum Type {
    /** Any text. */
    STRING,
    /** A decimal integer. */
    INT,
    /** {@code true} or {@code false}, in any case. */
    BOOLEAN,
    /** A whole number with a unit {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}; no unit means ms. */
    DURATION,
    /** Comma-separated values; blanks around items and empty items are dropped. */
    LIST,
    /** Comma-separated {@code key=value} pairs, in the order given. */
    MAP
  }

  private final String name;
  private final Type type;
  private final String defaultValue;
  private final boolean required;
  private final boolean secret;
  private final String description;
  private final List<String> allowedValues;
  private final long min;
  private final long max;

  private ConfigProperty(Builder<T> b) {
    this.name = b.name;
    this.type = b.type;
    this.defaultValue = b.defaultValue;
    this.required = b.required;
    this.secret = b.secret;
    this.description = b.description;
    this.allowedValues = List.copyOf(b.allowedValues);
    this.min = b.min;
    this.max = b.max;
  }

  /** A text property. */
  public static Builder<String> string(String name) {
    return new Builder<>(name, Type.STRING);
  }

  /** An integer property. */
  public static Builder<Integer> integer(String name) {
    return new Builder<>(name, Type.INT);
  }

  /** A boolean property. */
  public static Builder<Boolean> bool(String name) {
    return new Builder<>(name, Type.BOOLEAN);
  }

  /** A duration property ({@code 10s}, {@code 500ms}), at most 365 days. */
  public static Builder<Duration> duration(String name) {
    return new Builder<>(name, Type.DURATION);
  }

  /** A comma-separated list property. */
  public static Builder<List<String>> list(String name) {
    return new Builder<>(name, Type.LIST);
  }

  /** A {@code k=v,k2=v2} map property. */
  public static Builder<Map<String, String>> map(String name) {
    return new Builder<>(name, Type.MAP);
  }

  /** The name within the provider, such as {@code region}. */
  public String name() {
    return name;
  }

  /** The full key for a provider: {@code clusterresolver.<provider>.<name>}. */
  public String key(String provider) {
    return PREFIX + provider + "." + name;
  }

  /** The environment variable for a provider: {@code CLUSTERRESOLVER_<PROVIDER>_<NAME>}. */
  public String environmentVariable(String provider) {
    return environmentVariableOf(key(provider));
  }

  /** The environment variable that carries a key: upper case, dots and dashes as underscores. */
  public static String environmentVariableOf(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  public Type type() {
    return type;
  }

  /** The default value as text, or {@code null} when there is none. */
  public String defaultValue() {
    return defaultValue;
  }

  public boolean required() {
    return required;
  }

  /** A secret's value never appears in {@code toString}, logs or error messages. */
  public boolean secret() {
    return secret;
  }

  public String description() {
    return description;
  }

  /** The values a {@code STRING} property may take; empty when any value is allowed. */
  public List<String> allowedValues() {
    return allowedValues;
  }

  /**
   * Parses a value of this property.
   *
   * @param key the full key, for the message
   * @throws io.clusterresolver.ConfigurationException naming the key and, unless the property is
   *     secret, the value
   */
  @SuppressWarnings("unchecked")
  public T parse(String key, String raw) {
    return (T) parseValue(key, raw);
  }

  private Object parseValue(String key, String raw) {
    String text = raw.trim();
    switch (type) {
      case INT:
        long value;
        if (!ASCII_INTEGER.matcher(text).matches()) {
          // Long.parseLong also reads other scripts' digits ("٣" is 3): a port is written in ASCII.
          throw invalid(key, raw, "is not an integer");
        }
        try {
          value = Long.parseLong(text);
        } catch (NumberFormatException e) {
          throw invalid(key, raw, "is not an integer");
        }
        if (value < min || value > max) {
          throw invalid(key, raw, "is out of range: must be between " + min + " and " + max);
        }
        return (int) value;
      case BOOLEAN:
        if (text.equalsIgnoreCase("true")) {
          return Boolean.TRUE;
        }
        if (text.equalsIgnoreCase("false")) {
          return Boolean.FALSE;
        }
        throw invalid(key, raw, "is not a boolean: use true or false");
      case DURATION:
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
          throw invalid(key, raw, "is not a duration: use a whole number with a unit, like 500ms, 10s or 2m");
        }
        Duration duration;
        try {
          long amount = Long.parseLong(m.group(1));
          String unit = m.group(2) == null ? "ms" : m.group(2);
          switch (unit) {
            case "s":
              duration = Duration.ofSeconds(amount);
              break;
            case "m":
              duration = Duration.ofMinutes(amount);
              break;
            case "h":
              duration = Duration.ofHours(amount);
              break;
            case "d":
              duration = Duration.ofDays(amount);
              break;
            default:
              duration = Duration.ofMillis(amount);
          }
        } catch (ArithmeticException | NumberFormatException e) {
          duration = null;
        }
        // A Duration holds 99999999999999d, but a deadline made from it (toMillis, now + it) overflows.
        if (duration == null || duration.compareTo(MAX_DURATION) > 0) {
          throw invalid(key, raw, "is too large a duration: at most " + MAX_DURATION.toDays() + "d");
        }
        return duration;
      case LIST:
        return splitList(text);
      case MAP:
        Map<String, String> map = new LinkedHashMap<>();
        for (String item : splitList(text)) {
          int eq = item.indexOf('=');
          if (eq <= 0) {
            throw invalid(key, raw, "is not a map: use key=value pairs separated by commas, like k1=v1,k2=v2");
          }
          map.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
        }
        return Collections.unmodifiableMap(map);
      default:
        if (!allowedValues.isEmpty() && !allowedValues.contains(text)) {
          throw invalid(key, raw, "is not one of " + String.join(", ", allowedValues));
        }
        return raw;
    }
  }

  private static List<String> splitList(String text) {
    List<String> items = new ArrayList<>();
    for (String item : text.split(",")) {
      String trimmed = item.trim();
      if (!trimmed.isEmpty()) {
        items.add(trimmed);
      }
    }
    return Collections.unmodifiableList(items);
  }

  private ConfigurationException invalid(String key, String raw, String problem) {
    String shown = secret ? "(secret value hidden)" : "'" + raw + "'";
    return new ConfigurationException(key + ": " + shown + " " + problem);
  }

  @Override
  public String toString() {
    return name + " (" + type + (defaultValue != null && !secret ? ", default " + defaultValue : "")
        + (required ? ", required" : "") + (secret ? ", secret" : "") + ")";
  }

  /** Builds a {@link ConfigProperty}. */
  public static final class Builder<T> {
    private final String name;
    private final Type type;
    private String defaultValue;
    private boolean required;
    private boolean secret;
    private String description = "";
    private final List<String> allowedValues = new ArrayList<>();
    private long min = Integer.MIN_VALUE;
    private long max = Integer.MAX_VALUE;

    private Builder(String name, Type type) {
      if (name == null || !NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "Property name '" + name + "' must be lower-case words separated by dashes");
      }
      this.name = name;
      this.type = type;
    }

    /** The value used when no source sets the property. */
    public Builder<T> defaultValue(String defaultValue) {
      this.defaultValue = defaultValue;
      return this;
    }

    /** The property must be set. */
    public Builder<T> required() {
      this.required = true;
      return this;
    }

    /** The value is a credential: never shown. */
    public Builder<T> secret() {
      this.secret = true;
      return this;
    }

    /** One sentence that says what the property does. */
    public Builder<T> description(String description) {
      this.description = Objects.requireNonNull(description, "description");
      return this;
    }

    /** The only values a {@code STRING} property accepts. */
    public Builder<T> oneOf(String... values) {
      allowedValues.addAll(List.of(values));
      return this;
    }

    /** The inclusive range of an {@code INT} property. */
    public Builder<T> range(long min, long max) {
      this.min = min;
      this.max = max;
      return this;
    }

    public ConfigProperty<T> build() {
      ConfigProperty<T> property = new ConfigProperty<>(this);
      if (defaultValue != null) {
        property.parse(property.name, defaultValue); // a bad default is a bug in the provider
      }
      return property;
    }
  }
}
