package io.clusterresolver.aws;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.spi.ConfigProperty;
import java.util.List;
import java.util.Map;

/** Every property the {@code aws} provider reads: {@code clusterresolver.aws.<name>}. */
final class AwsProperties {

  static final ConfigProperty<String> REGION = ConfigProperty.string("region")
      .description("AWS region, like us-east-1; default: AWS_REGION, AWS_DEFAULT_REGION, then the instance metadata")
      .build();
  static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint(
      "EC2 API endpoint override (a VPC endpoint, a proxy, a simulation), like https://ec2.us-east-1.amazonaws.com");
  static final ConfigProperty<String> IMDS_ENDPOINT = CloudProperties.endpoint("imds-endpoint",
      "Instance metadata service endpoint; default http://169.254.169.254");
  static final ConfigProperty<String> PROFILE = ConfigProperty.string("profile")
      .description("Named profile of ~/.aws/credentials to sign with; default: the SDK's default credentials chain")
      .build();
  static final ConfigProperty<String> ACCESS_KEY_ID = ConfigProperty.string("access-key-id").secret()
      .description("Static access key id (with secret-access-key); prefer the default chain or a profile")
      .build();
  static final ConfigProperty<String> SECRET_ACCESS_KEY = ConfigProperty.string("secret-access-key").secret()
      .description("Static secret access key (with access-key-id)")
      .build();
  static final ConfigProperty<String> SESSION_TOKEN = ConfigProperty.string("session-token").secret()
      .description("Session token of temporary static credentials")
      .build();
  static final ConfigProperty<Map<String, String>> TAGS = ConfigProperty.map("tags")
      .description("Only instances with all these tags, like k1=v1,k2=v2 (EC2 wildcards * and ? allowed in values)")
      .build();
  static final ConfigProperty<String> ASG = ConfigProperty.string("asg")
      .description("Only instances of this Auto Scaling group (its aws:autoscaling:groupName tag)")
      .build();
  static final ConfigProperty<List<String>> STATES = ConfigProperty.list("states")
      .defaultValue("running")
      .description("Only instances in these states (pending, running, stopping, stopped, shutting-down, terminated)")
      .build();
  static final ConfigProperty<List<String>> ZONES = ConfigProperty.list("zones")
      .description("Only instances in these availability zones, like us-east-1a,us-east-1b")
      .build();
  static final ConfigProperty<String> VPC_ID = ConfigProperty.string("vpc-id")
      .description("Only instances in this VPC")
      .build();
  static final ConfigProperty<String> ADDRESS = CloudProperties.address(AddressType.PRIVATE_IPV4,
      AddressType.values());
  static final ConfigProperty<Boolean> ACCELERATORS = ConfigProperty.bool("accelerators")
      .defaultValue("true")
      .description("Report GPUs, Neuron devices and inference accelerators from DescribeInstanceTypes (one call per JVM)")
      .build();
  static final ConfigProperty<Integer> MAX_ATTEMPTS = ConfigProperty.integer("max-attempts")
      .defaultValue("5")
      .range(1, 20)
      .description("Attempts per API call, with backoff for throttling and server errors (within the timeout)")
      .build();
  static final ConfigProperty<Integer> PAGE_SIZE = ConfigProperty.integer("page-size")
      .defaultValue("1000")
      .range(5, 1000)
      .description("MaxResults of each DescribeInstances page")
      .build();

  static final ConfigProperty<String> RETRY_MODE = ConfigProperty.string("retry-mode")
      .defaultValue("standard")
      .description("Retry strategy: standard (exponential backoff with jitter) or adaptive (the SDK's adaptive"
          + " strategy: the same, plus a client-side rate limit that slows down after throttling)")
      .build();

  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(REGION, ENDPOINT, IMDS_ENDPOINT,
      PROFILE, ACCESS_KEY_ID, SECRET_ACCESS_KEY, SESSION_TOKEN, TAGS, ASG, STATES, ZONES, VPC_ID, ADDRESS, ACCELERATORS,
      MAX_ATTEMPTS, RETRY_MODE, PAGE_SIZE).tasksPerMember(CloudProperties.tasksPerMember("tasks-per-instance")).build();

  private AwsProperties() {}
}
