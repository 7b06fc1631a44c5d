package io.clusterresolver.google;

import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.cloud.PlatformProbes;
import io.clusterresolver.spi.ResolverContext;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The Compute Engine metadata server as the Google providers ask it: {@code GET
 * /computeMetadata/v1/PATH} with {@code Metadata-Flavor: Google}, taken only from an answer that
 * carries the same header (a proxy's or captive portal's page is never a value). A value the server
 * does not have, no server, or an answer that is not the server's, is empty (logged at DEBUG).
 * Immutable; nothing is cached (callers cache what they keep, {@code SelfIdentity}).
 */
public final class GoogleMetadata {

  private static final System.Logger LOG = System.getLogger(GoogleMetadata.class.getName());

  /** The metadata server's address on every Compute Engine instance and TPU VM. */
  public static final URI DEFAULT = URI.create("http://metadata.google.internal");

  /** This instance's numeric id. */
  public static final String INSTANCE_ID = "instance/id";
  /** The project id of this instance. */
  public static final String PROJECT_ID = "project/project-id";
  /** This instance's zone, {@code projects/NUMBER/zones/ZONE}. */
  public static final String ZONE = "instance/zone";
  /** The first network interface's internal IP address. */
  public static final String INTERNAL_IP = "instance/network-interfaces/0/ip";

  /** The DMI product name file of every Compute Engine machine, TPU VMs included. */
  public static final Path DMI_PRODUCT_NAME = Path.of("/sys/class/dmi/id/product_name");

  /** The variable Google's client libraries read a metadata server's {@code host:port} from. */
  public static final String GCE_METADATA_HOST = "GCE_METADATA_HOST";

  private static final String FLAVOR = "Metadata-Flavor";

  private final String provider;
  private final URI base;
  private final MetadataClient server;

  /**
   * @param provider the provider's name, which starts its log lines and names its properties in them
   * @param base the server, like {@link #base(URI, String)} gives it
   * @param connectTimeout the longest wait for a connection
   * @param readTimeout the longest wait for each read of the answer
   * @param maxAnswerBytes the largest value read ({@link MetadataClient#DEFAULT_MAX_ANSWER_BYTES} unless a
   *     value may be larger)
   */
  public GoogleMetadata(String provider, URI base, Duration connectTimeout, Duration readTimeout, int maxAnswerBytes) {
    this.provider = provider;
    this.base = base;
    URI api = URI.create(base.toString().replaceAll("/+$", "") + "/computeMetadata/v1");
    this.server = MetadataClient.builder(provider, api)
        .header(FLAVOR, "Google").answersWith(FLAVOR, "Google")
        .timeouts(connectTimeout, readTimeout).maxAnswerBytes(maxAnswerBytes).build();
  }

  /**
   * The server: the provider's {@code metadata-endpoint} when given, else {@code GCE_METADATA_HOST}
   * (a {@code host:port}, as Google's client libraries read it; a scheme is kept), else {@link #DEFAULT}.
   */
  public static URI base(URI configured, String gceMetadataHost) {
    if (configured != null) {
      return configured;
    }
    if (gceMetadataHost != null && !gceMetadataHost.isBlank()) {
      String host = gceMetadataHost.trim();
      return URI.create(host.startsWith("http://") || host.startsWith("https://") ? host : "http://" + host);
    }
    return DEFAULT;
  }

  /** Whether this machine says it is Compute Engine (its DMI product name, no network): a TPU VM says so too. */
  public static boolean onComputeEngine() {
    return PlatformProbes.fileContains(DMI_PRODUCT_NAME, "Google Compute Engine");
  }

  /**
   * The metadata server a provider's {@code detect} asks, each wait bounded by the context's probe timeout:
   * the one its {@code metadata-endpoint} or {@code GCE_METADATA_HOST} names, else, when {@code orDefault},
   * {@link #DEFAULT}. Empty, touching no network, when none is named and not {@code orDefault}.
   *
   * @param provider the provider's name, which names its {@code clusterresolver.PROVIDER.metadata-endpoint}
   * @param context what detection reads
   * @param orDefault whether to ask {@link #DEFAULT} when no server is named (on Compute Engine, say)
   */
  public static Optional<GoogleMetadata> forDetection(String provider, ResolverContext context, boolean orDefault) {
    Optional<String> configured = context.property("clusterresolver." + provider + ".metadata-endpoint");
    Optional<String> host = context.getenv(GCE_METADATA_HOST);
    if (configured.isEmpty() && host.isEmpty() && !orDefault) {
      return Optional.empty();
    }
    URI base = base(configured.map(URI::create).orElse(null), host.orElse(null));
    return Optional.of(new GoogleMetadata(provider, base, context.probeTimeout(), context.probeTimeout(),
        MetadataClient.DEFAULT_MAX_ANSWER_BYTES));
  }

  /** The server's address, without {@code /computeMetadata/v1}. */
  public URI base() {
    return base;
  }

  /** One value, trimmed; empty when the server has none, there is no server, or the answer is not its own. */
  public Optional<String> get(String path) {
    return server.get(path, why -> LOG.log(Level.DEBUG, () -> provider + ": metadata " + path + " not available ("
        + why + ")"));
  }

  /** Whether a Compute Engine metadata server answers there (for detection; never throws). */
  public boolean answers() {
    return server.answers("");
  }

  /** The project id of this instance. */
  public Optional<String> projectId() {
    return get(PROJECT_ID);
  }

  /** This instance's zone name ({@code us-central1-a}), from {@code projects/NUMBER/zones/ZONE}. */
  public Optional<String> zone() {
    return get(ZONE).map(ResourceNames::lastSegment);
  }

  /**
   * This instance's numeric id; when there is none, says at INFO how to run off an instance (the
   * provider's {@code task-type} and {@code task-id}, or its {@code metadata-endpoint}).
   */
  public Optional<String> instanceId() {
    Optional<String> id = get(INSTANCE_ID);
    if (id.isEmpty()) {
      LOG.log(Level.INFO, () -> provider + ": metadata " + INSTANCE_ID + " not available from " + base()
          + "; this process is not matched to an instance: set clusterresolver." + provider + ".task-type and"
          + " task-id, or clusterresolver." + provider + ".metadata-endpoint");
    }
    return id;
  }

  @Override
  public String toString() {
    return "GoogleMetadata{" + base() + "}";
  }
}
