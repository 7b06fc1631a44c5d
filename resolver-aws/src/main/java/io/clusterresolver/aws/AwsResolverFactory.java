package io.clusterresolver.aws;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.Ec2ClientBuilder;

/** Builds the {@code aws} resolver: validation, the EC2 calls (or the SDK client), filters and credentials. */
final class AwsResolverFactory {

  private static final String NAME = AwsClusterResolverProvider.NAME;

  private static final List<String> INSTANCE_STATES =
      List.of("pending", "running", "stopping", "stopped", "shutting-down", "terminated");

  /** What every AWS region name looks like (us-east-1, us-gov-west-1, cn-north-1, eusc-de-east-1). */
  private static final java.util.regex.Pattern REGION_NAME = java.util.regex.Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");

  private AwsResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    CloudResolverSetup setup = CloudResolverSetup.start(config, AwsProperties.ALL, AwsProperties.TASKS_PER_INSTANCE);
    List<String> problems = setup.problems();
    URI endpoint = setup.endpoint(AwsProperties.ENDPOINT);
    URI imdsEndpoint = setup.endpoint(AwsProperties.IMDS_ENDPOINT);
    boolean hasKey = config.isSet(AwsProperties.ACCESS_KEY_ID);
    boolean hasSecret = config.isSet(AwsProperties.SECRET_ACCESS_KEY);
    if (hasKey != hasSecret) {
      problems.add("Set both " + config.key(AwsProperties.ACCESS_KEY_ID) + " and "
          + config.key(AwsProperties.SECRET_ACCESS_KEY) + ", or neither (to use the default credentials chain)");
    }
    if (hasKey && config.isSet(AwsProperties.PROFILE)) {
      problems.add("Set either " + config.key(AwsProperties.PROFILE) + " or static keys, not both");
    }
    setup.knownValues(AwsProperties.STATES, INSTANCE_STATES, "an instance state", state -> state);
    String retryMode = config.get(AwsProperties.RETRY_MODE);
    if (!retryMode.equals("standard") && !retryMode.equals("adaptive")) {
      problems.add(config.key(AwsProperties.RETRY_MODE) + ": '" + retryMode + "' is not a retry mode: use standard or"
          + " adaptive");
    }
    ImdsClient imds = new ImdsClient(imdsEndpoint != null ? imdsEndpoint : ImdsClient.DEFAULT_ENDPOINT);
    boolean imdsDisabled = imdsEndpoint == null && "true".equalsIgnoreCase(config.getenv("AWS_EC2_METADATA_DISABLED"));
    String region = setup.lookup(AwsProperties.REGION, "region", "us-east-1")
        .orEnvironment("AWS_REGION", "AWS_DEFAULT_REGION")
        .orMetadata("the instance metadata", imdsDisabled ? Optional::empty : imds::region)
        .matching(REGION_NAME, "region name: use lower-case words and digits joined by dashes, like us-east-1 or"
            + " eu-central-2");
    setup.requireValid();

    List<Ec2Filter> filters = filters(config);
    int maxAttempts = config.get(AwsProperties.MAX_ATTEMPTS);
    AnswerLimit limit = AnswerLimit.of(config);
    Ec2Api ec2;
    URI api = endpoint != null ? endpoint : Ec2Calls.regionalEndpoint(region);
    boolean viaSdkClient;
    try {
      viaSdkClient = needsSdkClient(api, endpoint != null, retryMode);
    } catch (IllegalStateException e) { // the SDK's message names the variable, property or profile key and its value
      throw ResolverConfig.problems(NAME, List.of(e.getMessage() + " (the SDK's FIPS/dual-stack endpoint setting: fix"
          + " it, or set " + config.key(AwsProperties.ENDPOINT) + ")"));
    }
    if (viaSdkClient) {
      ec2 = new SdkEc2(sdkClient(config, region, endpoint, retryMode, maxAttempts, limit, Ec2Http.client(endpoint)));
    } else {
      Ec2Warmup.start(false, "https".equalsIgnoreCase(api.getScheme()));
      ec2 = new Ec2Calls(api, region, credentials(config), limit, Clock.systemUTC(), maxAttempts);
    }
    SelfIdentity identity = imdsDisabled ? SelfIdentity.none() : SelfIdentity.cached(imds::instanceId);
    Ec2MemberSource source = new Ec2MemberSource(ec2, Ec2MemberSource.standardRetries(maxAttempts), filters,
        AddressType.parse(config.get(AwsProperties.ADDRESS)), config.get(CloudProperties.TIMEOUT),
        config.get(AwsProperties.PAGE_SIZE), config.get(AwsProperties.ACCELERATORS),
        endpoint != null ? endpoint.toString() : region, imdsDisabled ? () -> { } : identity::askInBackground);
    // The listing also depends on the region found elsewhere and on whose credentials the default chain finds.
    return setup.resolver(source, identity, NAME,
        region, config.getenv("AWS_PROFILE"), config.getenv("AWS_ACCESS_KEY_ID"), config.getenv("AWS_ROLE_ARN"),
        System.getProperty("aws.accessKeyId"));
  }

  /**
   * Whether the resolve needs what only the SDK's {@code Ec2Client} gives: a proxy for {@code api} (its url-connection
   * client's proxy settings, or the JDK's proxy selector, which that client's connections follow), the adaptive
   * client-side rate limit, or, without an endpoint override, a FIPS or dual-stack endpoint (its endpoint rules).
   *
   * @param api where the calls go: the endpoint override, or else the region's public endpoint
   */
  static boolean needsSdkClient(URI api, boolean endpointOverridden, String retryMode) {
    return Ec2Http.proxied(api) || retryMode.equals("adaptive")
        || (!endpointOverridden && Ec2Http.fipsOrDualstackAsked());
  }

  /** The SDK's client, its answers of 200 read by {@link StreamingInstances}, retrying as {@code retryMode} says. */
  static Ec2Client sdkClient(ResolverConfig config, String region, URI endpoint, String retryMode,
      int maxAttempts, AnswerLimit limit, SdkHttpClient http) {
    Ec2ClientBuilder ec2 = Ec2Client.builder()
        .region(Region.of(region))
        .credentialsProvider(credentials(config))
        .httpClient(http)
        .overrideConfiguration(o -> o.retryStrategy((retryMode.equals("adaptive")
                ? AwsRetryStrategy.adaptiveRetryStrategy() : AwsRetryStrategy.standardRetryStrategy()).toBuilder()
                .maxAttempts(maxAttempts).build())
            .addExecutionInterceptor(new StreamingInstances(limit, config.get(CloudProperties.TIMEOUT))));
    if (endpoint != null) {
      ec2.endpointOverride(endpoint);
    }
    return ec2.build();
  }

  private static List<Ec2Filter> filters(ResolverConfig config) {
    List<Ec2Filter> filters = new ArrayList<>();
    config.get(AwsProperties.TAGS).forEach((k, v) -> filters.add(new Ec2Filter("tag:" + k, List.of(v))));
    config.find(AwsProperties.ASG).ifPresent(asg ->
        filters.add(new Ec2Filter("tag:aws:autoscaling:groupName", List.of(asg))));
    List<String> states = config.get(AwsProperties.STATES);
    if (!states.isEmpty()) {
      filters.add(new Ec2Filter("instance-state-name", states));
    }
    List<String> zones = config.get(AwsProperties.ZONES);
    if (!zones.isEmpty()) {
      filters.add(new Ec2Filter("availability-zone", zones));
    }
    config.find(AwsProperties.VPC_ID).ifPresent(vpc -> filters.add(new Ec2Filter("vpc-id", List.of(vpc))));
    return filters;
  }

  private static AwsCredentialsProvider credentials(ResolverConfig config) {
    Optional<String> key = config.find(AwsProperties.ACCESS_KEY_ID);
    if (key.isPresent()) {
      String secret = config.get(AwsProperties.SECRET_ACCESS_KEY);
      Optional<String> session = config.find(AwsProperties.SESSION_TOKEN);
      return StaticCredentialsProvider.create(session.isPresent()
          ? AwsSessionCredentials.create(key.get(), secret, session.get())
          : AwsBasicCredentials.create(key.get(), secret));
    }
    Optional<String> profile = config.find(AwsProperties.PROFILE);
    if (profile.isPresent()) {
      return ProfileCredentialsProvider.create(profile.get());
    }
    return DefaultCredentialsProvider.builder().build();
  }

}
