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
import software.amazon.awssdk.awscore.endpoint.DualstackEnabledProvider;
import software.amazon.awssdk.awscore.endpoint.FipsEnabledProvider;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.utils.Lazy;

/** Builds the {@code aws} resolver: validation, the EC2 calls, their endpoint, filters and credentials. */
final class AwsResolverFactory {

  private static final String NAME = AwsClusterResolverProvider.NAME;

  private static final List<String> INSTANCE_STATES =
      List.of("pending", "running", "stopping", "stopped", "shutting-down", "terminated");

  /** What every AWS region name looks like (us-east-1, us-gov-west-1, cn-north-1, eusc-de-east-1). */
  private static final java.util.regex.Pattern REGION_NAME = java.util.regex.Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");

  private AwsResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    CloudResolverSetup setup = CloudResolverSetup.start(config, AwsProperties.DECLARATIONS);
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
    URI api;
    try {
      api = endpoint != null ? endpoint : regionalEndpoint(region);
    } catch (IllegalStateException e) { // the SDK's message names the variable, property or profile key and its value
      throw ResolverConfig.problems(NAME, List.of(e.getMessage() + " (the SDK's FIPS/dual-stack endpoint setting: fix"
          + " it, or set " + config.key(AwsProperties.ENDPOINT) + ")"));
    }
    Ec2Warmup.start("https".equalsIgnoreCase(api.getScheme()));
    Ec2Calls calls = new Ec2Calls(api, region, credentials(config), AnswerLimit.of(config), Clock.systemUTC(),
        maxAttempts, Ec2Proxies.fromSettings());
    SelfIdentity identity = imdsDisabled ? SelfIdentity.none() : SelfIdentity.cached(imds::instanceId);
    Ec2MemberSource source = new Ec2MemberSource(calls, retryMode.equals("adaptive") ? AdaptiveEc2.retries(maxAttempts)
        : Ec2MemberSource.standardRetries(maxAttempts), filters,
        AddressType.parse(config.get(AwsProperties.ADDRESS)), config.get(CloudProperties.TIMEOUT),
        config.get(AwsProperties.PAGE_SIZE), config.get(AwsProperties.ACCELERATORS),
        endpoint != null ? endpoint.toString() : region, imdsDisabled ? () -> { } : identity::askInBackground);
    // The listing also depends on the region found elsewhere and on whose credentials the default chain finds.
    return setup.resolver(source, identity, NAME,
        region, config.getenv("AWS_PROFILE"), config.getenv("AWS_ACCESS_KEY_ID"), config.getenv("AWS_ROLE_ARN"),
        System.getProperty("aws.accessKeyId"));
  }

  /**
   * EC2's endpoint in {@code region}: FIPS or dual-stack when the SDK's own settings ask for it
   * ({@code AWS_USE_FIPS_ENDPOINT}/{@code AWS_USE_DUALSTACK_ENDPOINT}, {@code aws.useFipsEndpoint}/
   * {@code aws.useDualstackEndpoint}, the profile's {@code use_fips_endpoint}/{@code use_dualstack_endpoint}), read by
   * the SDK's providers as its client read them; the profile file is read at most once, only when a flag is not set
   * elsewhere.
   *
   * @throws IllegalStateException naming the setting, when it is neither {@code true} nor {@code false}
   */
  static URI regionalEndpoint(String region) {
    Lazy<ProfileFile> profiles = new Lazy<>(ProfileFile::defaultProfileFile);
    boolean fips = FipsEnabledProvider.builder().profileFile(profiles::getValue).build().isFipsEnabled()
        .orElse(false);
    boolean dualstack = DualstackEnabledProvider.builder().profileFile(profiles::getValue).build()
        .isDualstackEnabled().orElse(false);
    return Ec2Calls.regionalEndpoint(region, fips, dualstack);
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
