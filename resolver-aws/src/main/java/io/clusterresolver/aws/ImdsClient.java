package io.clusterresolver.aws;

import io.clusterresolver.cloud.MetadataClient;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * This instance's identity from IMDSv2: a token {@code PUT} (valid six hours, as the SDK asks), then
 * the token on every GET; 1 s to connect, 2 s to read, two retries of a lost answer or server error.
 */
final class ImdsClient {

  private static final System.Logger LOG = System.getLogger(ImdsClient.class.getName());

  static final URI DEFAULT_ENDPOINT = URI.create("http://169.254.169.254");

  private final MetadataClient imds;

  ImdsClient(URI endpoint) {
    this.imds = MetadataClient.builder(AwsClusterResolverProvider.NAME, endpoint)
        .token("PUT", "/latest/api/token", Map.of("x-aws-ec2-metadata-token-ttl-seconds", "21600"),
            "x-aws-ec2-metadata-token")
        .timeouts(Duration.ofSeconds(1), Duration.ofSeconds(2))
        .retries(2)
        .build();
  }

  /** This instance's id, or empty off EC2 (logged); callers cache it ({@code SelfIdentity}). */
  Optional<String> instanceId() {
    return get("/latest/meta-data/instance-id");
  }

  /** The region from the metadata service, or empty. */
  Optional<String> region() {
    return get("/latest/meta-data/placement/region");
  }

  private Optional<String> get(String path) {
    return imds.get(path, why -> LOG.log(Level.INFO, () -> "aws: instance metadata " + path + " not available ("
        + why + "); this process is not matched to an instance: set clusterresolver.aws.task-type and task-id,"
        + " or clusterresolver.aws.imds-endpoint"));
  }
}
