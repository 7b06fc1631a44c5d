package io.clusterresolver.aws;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.core.retry.backoff.BackoffStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataRetryPolicy;

/**
 * This instance's identity from IMDSv2 (the SDK's {@link Ec2MetadataClient}: a token PUT, then the
 * token on every GET). 
 */
final class ImdsClient {

  private static final System.Logger LOG = System.getLogger(ImdsClient.class.getName());

  static final URI DEFAULT_ENDPOINT = URI.create("http://169.254.169.254");

  private final URI endpoint;

  ImdsClient(URI endpoint) {
    this.endpoint = endpoint;
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
    try (UrlConnectionHttpClient http = (UrlConnectionHttpClient) UrlConnectionHttpClient.builder()
            .connectionTimeout(Duration.ofSeconds(1)).socketTimeout(Duration.ofSeconds(2)).build();
        Ec2MetadataClient imds = Ec2MetadataClient.builder()
            .endpoint(endpoint)
            .httpClient(http)
            .retryPolicy(Ec2MetadataRetryPolicy.builder().numRetries(2)
                .backoffStrategy(BackoffStrategy.defaultStrategy()).build())
            .build()) {
      String value = imds.get(path).asString().trim();
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    } catch (RuntimeException e) {
      LOG.log(Level.INFO, () -> "aws: instance metadata " + path + " not available from " + endpoint + " ("
          + e.getClass().getSimpleName() + "); this process is not matched to an instance: set "
          + "clusterresolver.aws.task-type and task-id, or clusterresolver.aws.imds-endpoint");
      return Optional.empty();
    }
  }
}
