package io.clusterresolver.grpc;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.spi.ConfigProperty;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code cluster://PROVIDER/JOB[?key=value&...]} target: the provider that resolves the cluster
 * (empty, {@code cluster:///JOB}, to detect it), the job whose tasks the channel talks to,
 * properties for the provider ({@code clusterresolver.*} keys, highest precedence), and the name
 * resolver's own options ({@code refresh-interval}, {@code min-refresh-interval}, each at least
 * {@link #FLOOR}; {@code refresh-interval} may also be zero, for never). Query items are percent-decoded as RFC 3986 says: a {@code +} stays a
 * {@code +} (it is not a form's space), so a base64 secret survives. {@link #toString()} never shows
 * a property's value: it may be a secret.
 *
 * @param provider the provider name, or {@code null} to detect it
 * @param job the job
 * @param properties provider properties from the query
 * @param refreshInterval how long after each answer the job is resolved again; zero for never
 *     (then only when the channel asks, after a connection fails)
 * @param minRefreshInterval the least time between two resolves the channel asks for
 */
record ClusterTarget(String provider, String job, Map<String, String> properties, Duration refreshInterval,
    Duration minRefreshInterval) {

  /** The target option: resolve again this long after each answer ({@code 0}, the default: never). */
  static final ConfigProperty<Duration> REFRESH_INTERVAL = ConfigProperty.duration("refresh-interval")
      .defaultValue("0s").description("Resolve the job again this long after each answer; 0 for never").build();

  /** The target option: the least time between two resolves the channel asks for. */
  static final ConfigProperty<Duration> MIN_REFRESH_INTERVAL = ConfigProperty.duration("min-refresh-interval")
      .defaultValue("10s").description("The least time between two resolves a channel asks for").build();

  /**
   * The least interval between resolves a target may ask for (either option): a cloud API is not
   * DNS, and a listing costs quota shared by the whole project.
   */
  static final Duration FLOOR = Duration.ofSeconds(1);

  private static final List<ConfigProperty<Duration>> OPTIONS = List.of(REFRESH_INTERVAL, MIN_REFRESH_INTERVAL);

  /** The target scheme. */
  static final String SCHEME = "cluster";

  /**
   * Reads a target.
   *
   * @return the target, or {@code null} when the URI is not a {@code cluster:} target
   * @throws ConfigurationException for a {@code cluster:} target without a job, naming the target
   */
  static ClusterTarget parse(URI uri) {
    if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
      return null;
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String job = path.startsWith("/") ? path.substring(1) : path;
    if (job.isEmpty() || job.contains("/")) {
      throw new ConfigurationException("gRPC target '" + uri + "' names no job: write cluster://PROVIDER/JOB,"
          + " like cluster://slurm/worker (or cluster:///worker to detect the provider)");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    Map<String, String> options = new LinkedHashMap<>();
    String query = uri.getRawQuery();
    if (query != null && !query.isEmpty()) {
      for (String pair : query.split("&")) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw new ConfigurationException("gRPC target '" + uri.getScheme() + "://" + uri.getAuthority() + uri.getPath()
              + "': a query item is not key=value (not shown: it may hold a secret)");
        }
        String key = percentDecode(pair.substring(0, eq), uri);
        String value = percentDecode(pair.substring(eq + 1), uri);
        (key.startsWith(ConfigProperty.PREFIX) ? properties : options).put(key, value);
      }
    }
    for (String key : options.keySet()) {
      if (OPTIONS.stream().noneMatch(o -> o.name().equals(key))) {
        throw new ConfigurationException("gRPC target '" + uri.getScheme() + "://" + uri.getAuthority() + uri.getPath()
            + "': unknown query key '" + key + "'; provider properties start with " + ConfigProperty.PREFIX
            + " and the target's own options are " + OPTIONS.stream().map(ConfigProperty::name).toList());
      }
    }
    String authority = uri.getAuthority();
    return new ClusterTarget(authority == null || authority.isEmpty() ? null : authority, job, Map.copyOf(properties),
        option(options, REFRESH_INTERVAL), option(options, MIN_REFRESH_INTERVAL));
  }

  /** The target as written, with every property value replaced by {@code ***}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(SCHEME).append("://").append(provider == null ? "" : provider)
        .append('/').append(job);
    String separator = "?";
    for (String key : properties.keySet()) {
      text.append(separator).append(key).append("=***");
      separator = "&";
    }
    return text.toString();
  }

  private static Duration option(Map<String, String> options, ConfigProperty<Duration> option) {
    String key = option.name() + " (in the gRPC target's query)";
    String raw = options.getOrDefault(option.name(), option.defaultValue());
    Duration value = option.parse(key, raw);
    boolean never = value.isZero() && option == REFRESH_INTERVAL;
    if (!never && value.compareTo(FLOOR) < 0) {
      throw new ConfigurationException(key + ": '" + raw + "' is below the floor of " + FLOOR.toMillis()
          + "ms; a cloud API is not DNS: use " + FLOOR.toSeconds() + "s or more"
          + (option == REFRESH_INTERVAL ? ", or 0s to resolve only when the channel asks" : ""));
    }
    return value;
  }

  /** RFC 3986 percent-decoding: unlike {@link java.net.URLDecoder}, {@code +} is kept. */
  private static String percentDecode(String raw, URI uri) {
    if (raw.indexOf('%') < 0) {
      return raw;
    }
    StringBuilder text = new StringBuilder(raw.length());
    ByteArrayOutputStream escaped = new ByteArrayOutputStream(); // a run of %XX: UTF-8 bytes
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        text.append(escaped.toString(StandardCharsets.UTF_8)).append(c);
        escaped.reset();
        continue;
      }
      int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int low = high < 0 ? -1 : Character.digit(raw.charAt(i + 2), 16);
      if (low < 0) { // java.net.URI has already refused such a target; kept for a URI built otherwise
        throw new ConfigurationException("gRPC target '" + uri.getScheme() + "://" + uri.getAuthority()
            + uri.getPath() + "': a query item has a '%' not followed by two hex digits; write a literal % as %25"
            + " (not shown: it may hold a secret)");
      }
      escaped.write(high << 4 | low);
      i += 2;
    }
    return text.append(escaped.toString(StandardCharsets.UTF_8)).toString();
  }
}
