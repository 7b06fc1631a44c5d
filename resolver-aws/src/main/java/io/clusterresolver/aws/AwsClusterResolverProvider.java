package io.clusterresolver.aws;

import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.cloud.PlatformProbes;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code aws} provider: the EC2 instances selected by tags, Auto Scaling group, state, zone and
 * VPC, as a cluster. Every {@code clusterSpec()} lists them afresh with {@code DescribeInstances}
 * (all pages, under one deadline); this process finds its own task by its IMDSv2 instance id.
 * Properties: {@code clusterresolver.aws.*}, see the module README.
 */
public final class AwsClusterResolverProvider extends CloudResolverProvider {

  /** The provider's name. */
  public static final String NAME = "aws";

  /** Environment variables that only exist on AWS compute (Lambda, ECS, Fargate, Batch). */
  private static final List<String> AWS_ENVIRONMENT_HINTS =
      List.of("AWS_EXECUTION_ENV", "ECS_CONTAINER_METADATA_URI_V4", "ECS_CONTAINER_METADATA_URI", "AWS_BATCH_JOB_ID");

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public AwsClusterResolverProvider() {
    // A lambda: a method reference would load AwsResolverFactory, and verifying it the SDK's classes.
    super(NAME, AwsProperties.DECLARATIONS, config -> AwsResolverFactory.create(config));
  }

  /**
   * Cheap hints first (an explicit {@code imds-endpoint}, {@code /sys/hypervisor/uuid} starting with
   * {@code ec2}, a DMI vendor of Amazon, AWS compute environment variables); only with a hint, one
   * IMDSv2 token request bounded by the context's probe timeout (90 ms by default). Off EC2 no network is touched.
   */
  @Override
  protected boolean detect(ResolverContext context) {
    Optional<String> explicit = context.property(AwsProperties.IMDS_ENDPOINT.key(NAME));
    boolean hint = explicit.isPresent()
        || PlatformProbes.fileStartsWith(PlatformProbes.HYPERVISOR_UUID, "ec2")
        || PlatformProbes.fileContains(PlatformProbes.DMI_BOARD_VENDOR, "amazon")
        || PlatformProbes.fileContains(PlatformProbes.DMI_SYS_VENDOR, "amazon")
        || AWS_ENVIRONMENT_HINTS.stream().anyMatch(v -> context.getenv(v).isPresent());
    if (!hint) {
      return false;
    }
    if (explicit.isEmpty() && "true".equalsIgnoreCase(context.getenv("AWS_EC2_METADATA_DISABLED").orElse(""))) {
      return false;
    }
    URI endpoint = URI.create(explicit.orElse(ImdsClient.DEFAULT_ENDPOINT.toString()));
    return PlatformProbes.http("PUT", endpoint.resolve("/latest/api/token"),
        Map.of("x-aws-ec2-metadata-token-ttl-seconds", "60"), context.probeTimeout()).map(PlatformProbes.Response::ok).orElse(false);
  }
}
