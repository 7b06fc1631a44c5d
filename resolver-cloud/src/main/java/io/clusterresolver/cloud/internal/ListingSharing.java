package io.clusterresolver.cloud.internal;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How a cloud provider's processes share listings: the properties (in a provider's own namespace)
 * and the chain they build around the provider's {@link MemberSource}: this host's
 * {@link SharedListing} (one listing per host), around a {@link ListingRelay} (one listing for every
 * host) when {@code relay} is set, around the cloud.
 */
public final class ListingSharing {

  /** Per-host single-flight, on by default. */
  public static final ConfigProperty<Boolean> SHARED_LISTING = ConfigProperty.bool("shared-listing")
      .defaultValue("true")
      .description("Processes of one host share listings: a resolve that starts while another process of this host"
          + " lists the same query (same filters, same credentials) waits for that listing and uses it; false: every"
          + " resolve lists for itself")
      .build();

  /** How old a finished listing of this host may be. */
  public static final ConfigProperty<Duration> SHARED_LISTING_MAX_AGE = ConfigProperty.duration("shared-listing-max-age")
      .defaultValue("0s")
      .description("With shared-listing, also use a finished listing of another process of this host that began at"
          + " most this long before the resolve; 0: only listings in progress when the resolve starts")
      .build();

  /** Where this host's listings are kept. */
  public static final ConfigProperty<String> SHARED_LISTING_DIR = ConfigProperty.string("shared-listing-dir")
      .description("Directory of the shared listing's lock and listing files (created readable by this user only);"
          + " default: cluster-resolver-USER under java.io.tmpdir")
      .build();

  /** The relay every host asks. */
  public static final ConfigProperty<String> RELAY = ConfigProperty.string("relay")
      .description("HOST:PORT of a relay that lists for every host (one listing for the whole job instead of one per"
          + " host): the process that can bind it serves it (say the chief's host), the others ask it and list the"
          + " cloud themselves if it cannot answer or its answer does not prove relay-secret; needs relay-secret,"
          + " relay-secret-file or relay-insecure=true; unset: no relay")
      .build();

  /** Whether this process may be the relay. */
  public static final ConfigProperty<Boolean> RELAY_SERVE = ConfigProperty.bool("relay-serve")
      .defaultValue("true")
      .description("With relay, serve it when this process can bind its HOST:PORT; false: only ask it")
      .build();

  /** How old the relay's listing may be. */
  public static final ConfigProperty<Duration> RELAY_MAX_AGE = ConfigProperty.duration("relay-max-age")
      .defaultValue("0s")
      .description("With relay, accept a listing the relay began at most this long before it was asked (its own"
          + " clock); 0: only a listing that finishes after the question")
      .build();

  /** How long to wait for the relay. */
  public static final ConfigProperty<Duration> RELAY_WAIT = ConfigProperty.duration("relay-wait")
      .description("With relay, how long to wait for it to listen and answer before listing the cloud directly;"
          + " shorter than timeout; default: a third of timeout")
      .build();

  /** The secret a job's processes share, proving relay requests, answers and shared listing files. */
  public static final ConfigProperty<String> RELAY_SECRET = ConfigProperty.string("relay-secret")
      .secret()
      .description("With relay, the secret every process of the job shares (at least " + ListingSharing.MIN_SECRET
          + " characters, like the output of 'openssl rand -hex 32'): the relay answers only requests that prove it and"
          + " a host takes only answers that prove it (HMAC-SHA256 over the request, with a time and a nonce against"
          + " replay; the answer encrypted and authenticated with AES-256-GCM); it also seals this host's shared listing files. Required with relay, unless"
          + " relay-secret-file or relay-insecure=true")
      .build();

  /** A file holding {@link #RELAY_SECRET}. */
  public static final ConfigProperty<String> RELAY_SECRET_FILE = ConfigProperty.string("relay-secret-file")
      .description("With relay, a file holding relay-secret (its whole content, surrounding whitespace stripped; at"
          + " most " + ListingSharing.MAX_SECRET_FILE_BYTES + " bytes), instead of relay-secret")
      .build();

  /** Running the relay without a secret, knowingly. */
  public static final ConfigProperty<Boolean> RELAY_INSECURE = ConfigProperty.bool("relay-insecure")
      .defaultValue("false")
      .description("With relay, run it without a secret: anyone who reaches its address reads the listing and can"
          + " make it list the cloud, and whoever binds the address first answers every host. Only for a network no"
          + " one else reaches")
      .build();

  /** Every declaration above, in the order a README lists them. */
  public static final List<ConfigProperty<?>> ALL = List.of(SHARED_LISTING, SHARED_LISTING_MAX_AGE,
      SHARED_LISTING_DIR, RELAY, RELAY_SERVE, RELAY_MAX_AGE, RELAY_WAIT, RELAY_SECRET, RELAY_SECRET_FILE,
      RELAY_INSECURE);

  /** The shortest secret: a guessable one would let a captured request be brute-forced offline. */
  static final int MIN_SECRET = 16;

  /** The largest secret file read (a secret, not a document: {@code /dev/zero} is refused, not read). */
  static final int MAX_SECRET_FILE_BYTES = 4096;

  private ListingSharing() {}

  /**
   * A query naming everything a provider's listing depends on, for providers that do not spell it
   * out: every declared property as this process resolved it (secret values hashed, never in clear),
   * except those that only place this process ({@code task-type}, {@code task-id}, {@code rpc-layer})
   * or tune sharing and the deadline; then {@code resolved}: what the provider found elsewhere (a
   * project or subscription from the metadata server, the credentials' environment).
   */
  public static String query(ResolverConfig config, List<ConfigProperty<?>> declared, String... resolved) {
    StringBuilder query = new StringBuilder(config.provider()).append(" 1");
    for (ConfigProperty<?> property : declared) {
      if (TaskProperties.ALL.contains(property) || ALL.contains(property) || property.equals(CloudProperties.TIMEOUT)) {
        continue;
      }
      String value = config.find(property).map(String::valueOf).orElse("");
      query.append('|').append(property.name()).append('=')
          .append(property.secret() && !value.isEmpty() ? "sha256:" + SharedListing.digest(value) : value);
    }
    for (String value : resolved) {
      query.append("|").append(value == null ? "" : "sha256:" + SharedListing.digest(value));
    }
    return query.toString();
  }

  /**
   * The relay's address, or {@code null} when none is set or it is malformed (then a problem names
   * the key). The host name is resolved when the resolver is built.
   */
  public static InetSocketAddress relayAddress(ResolverConfig config, List<String> problems) {
    String value = config.find(RELAY).map(String::strip).orElse("");
    if (value.isEmpty()) {
      return null;
    }
    String key = config.key(RELAY);
    URI uri;
    try {
      uri = new URI("http://" + value);
    } catch (URISyntaxException e) {
      uri = null;
    }
    if (uri == null || uri.getHost() == null || uri.getPort() < 1 || uri.getPort() > 65535
        || !uri.getRawPath().isEmpty() || uri.getRawQuery() != null || uri.getRawUserInfo() != null) {
      problems.add(key + ": '" + value + "' is not HOST:PORT: write the relay's host and port, like 10.0.0.5:7777"
          + " or [fd00::5]:7777");
      return null;
    }
    InetSocketAddress address = new InetSocketAddress(uri.getHost().replaceAll("^\\[|\\]$", ""), uri.getPort());
    if (!address.isUnresolved() && address.getAddress().isAnyLocalAddress()) {
      problems.add(key + ": '" + value + "' is a wildcard address: name the address the other hosts reach the relay"
          + " on, like 10.0.0.5:7777 (the relay listens on that address only)");
      return null;
    }
    if (address.isUnresolved()) {
      problems.add(key + ": the host of '" + value + "' does not resolve: use an address or a name this host's"
          + " DNS knows");
      return null;
    }
    checkTrust(config, problems);
    if (config.isSet(RELAY_WAIT) && config.get(RELAY_WAIT).compareTo(config.get(CloudProperties.TIMEOUT)) >= 0) {
      problems.add(config.key(RELAY_WAIT) + " (" + config.get(RELAY_WAIT) + ") must be shorter than "
          + config.key(CloudProperties.TIMEOUT) + " (" + config.get(CloudProperties.TIMEOUT)
          + "), to leave time to list the cloud when the relay does not answer");
    }
    return address;
  }

  /** Adds a problem unless the relay has exactly one secret, or none with {@code relay-insecure=true}. */
  private static void checkTrust(ResolverConfig config, List<String> problems) {
    boolean secret = config.isSet(RELAY_SECRET);
    boolean file = config.isSet(RELAY_SECRET_FILE);
    boolean insecure = config.get(RELAY_INSECURE);
    if (secret && file) {
      problems.add(config.key(RELAY_SECRET) + " and " + config.key(RELAY_SECRET_FILE) + " are both set: keep one");
    } else if (!secret && !file && !insecure) {
      problems.add(config.key(RELAY) + " needs a secret every process of the job shares: set "
          + config.key(RELAY_SECRET_FILE) + " (a file holding it, made with 'openssl rand -hex 32') or "
          + config.key(RELAY_SECRET) + "; or " + config.key(RELAY_INSECURE) + "=true on a network no one else reaches");
    } else if ((secret || file) && insecure) {
      problems.add(config.key(RELAY_INSECURE) + "=true and a relay secret contradict each other: remove one");
    } else if (secret || file) {
      secret(config, problems);
    }
  }

  /**
   * The seal of this configuration's secret ({@code relay-secret} or {@code relay-secret-file}),
   * unkeyed when there is none.
   *
   * @throws io.clusterresolver.ConfigurationException when the secret is unusable
   */
  static ListingSeal seal(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    byte[] secret = secret(config, problems);
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(config.provider(), problems);
    }
    return secret == null ? ListingSeal.unkeyed() : ListingSeal.of(secret);
  }

  /** The secret's bytes, {@code null} when none is set or it is unusable (then a problem names the key). */
  private static byte[] secret(ResolverConfig config, List<String> problems) {
    String value;
    String key;
    if (config.isSet(RELAY_SECRET)) {
      key = config.key(RELAY_SECRET);
      value = config.get(RELAY_SECRET).strip();
    } else if (config.isSet(RELAY_SECRET_FILE)) {
      key = config.key(RELAY_SECRET_FILE);
      Path file = Path.of(config.get(RELAY_SECRET_FILE));
      try (InputStream in = Files.newInputStream(file)) {
        byte[] bytes = in.readNBytes(MAX_SECRET_FILE_BYTES + 1);
        if (bytes.length > MAX_SECRET_FILE_BYTES) {
          problems.add(key + ": " + file + " holds more than " + MAX_SECRET_FILE_BYTES + " bytes: it should hold only"
              + " the secret, like the output of 'openssl rand -hex 32'");
          return null;
        }
        value = new String(bytes, StandardCharsets.UTF_8).strip();
      } catch (IOException | InvalidPathException e) {
        problems.add(key + ": cannot read the secret from " + file + " (" + e.getClass().getSimpleName() + "): name a"
            + " file this user can read");
        return null;
      }
    } else {
      return null;
    }
    if (value.length() < MIN_SECRET) {
      problems.add(key + ": the relay secret is " + (value.isEmpty() ? "empty" : "shorter than " + MIN_SECRET
          + " characters") + ": use a long random one, like the output of 'openssl rand -hex 32'");
      return null;
    }
    return value.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The provider's source with the sharing the configuration asks for.
   *
   * @param config the provider's configuration (declaring {@link #ALL} and {@link CloudProperties#TIMEOUT})
   * @param cloud lists the cloud
   * @param query everything that decides what a listing returns (endpoint, filters, address type, the
   *     credentials' identity hashed): listings of other queries are never shared
   * @param relay the relay's address from {@link #relayAddress}, or {@code null}
   */
  public static MemberSource around(ResolverConfig config, MemberSource cloud, String query, InetSocketAddress relay) {
    if (relay == null) {
      return onThisHost(config, cloud, query);
    }
    ListingSeal seal = seal(config);
    ListingRelay relayed = new ListingRelay(config.provider(), relay, query, config.get(RELAY_MAX_AGE),
        relayWait(config), System::currentTimeMillis, seal);
    MemberSource asking = onThisHost(config, relayed.asking(cloud), query);
    return config.get(RELAY_SERVE) ? relayed.serving(cloud, asking) : asking;
  }

  /** {@code relay-wait}, or a third of {@code timeout}: time left to list the cloud when the relay does not answer. */
  static Duration relayWait(ResolverConfig config) {
    return config.find(RELAY_WAIT).orElseGet(() -> config.get(CloudProperties.TIMEOUT).dividedBy(3));
  }

  /** {@code source} shared by this host's processes when {@code shared-listing} is on. */
  private static MemberSource onThisHost(ResolverConfig config, MemberSource source, String query) {
    if (!config.get(SHARED_LISTING)) {
      return source;
    }
    String named = config.find(SHARED_LISTING_DIR).orElse(null);
    if (named != null && named.isBlank()) {
      throw new ConfigurationException(config.key(SHARED_LISTING_DIR) + " is empty: set the folder of this host's"
          + " listings, or leave it unset for cluster-resolver-USER under java.io.tmpdir");
    }
    Path directory = named != null ? Path.of(named) : Path.of(System.getProperty("java.io.tmpdir"),
        "cluster-resolver-" + System.getProperty("user.name", "user"));
    return new SharedListing(config.provider(), source, directory, query, config.get(SHARED_LISTING_MAX_AGE),
        config.get(CloudProperties.TIMEOUT), System::currentTimeMillis, seal(config));
  }
}
