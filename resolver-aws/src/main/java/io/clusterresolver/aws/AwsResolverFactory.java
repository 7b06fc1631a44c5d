package io.clusterresolver.aws;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.layout.ClusterLayout;
import io.clusterresolver.layout.MemberClusterResolver;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.time.Duration;
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
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.Ec2ClientBuilder;
import software.amazon.awssdk.services.ec2.model.Filter;

/** Builds the {@code aws} resolver: validation, the SDK client, filters and credentials. */
final class AwsResolverFactory {

  private static final String NAME = AwsClusterResolverProvider.NAME;

  private AwsResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    URI endpoint = uri(config, AwsProperties.ENDPOINT.name(), problems);
    URI imdsEndpoint = uri(config, AwsProperties.IMDS_ENDPOINT.name(), problems);
    boolean hasKey = config.isSet(AwsProperties.ACCESS_KEY_ID.name());
    boolean hasSecret = config.isSet(AwsProperties.SECRET_ACCESS_KEY.name());
    if (hasKey != hasSecret) {
      problems.add("Set both " + config.key(AwsProperties.ACCESS_KEY_ID.name()) + " and "
          + config.key(AwsProperties.SECRET_ACCESS_KEY.name()) + ", or neither (to use the default credentials chain)");
    }
    if (hasKey && config.isSet(AwsProperties.PROFILE.name())) {
      problems.add("Set either " + config.key(AwsProperties.PROFILE.name()) + " or static keys, not both");
    }
    List<String> states = config.list(AwsProperties.STATES.name());
    for (String state : states) {
      if (!List.of("pending", "running", "stopping", "stopped", "shutting-down", "terminated").contains(state)) {
        problems.add(config.key(AwsProperties.STATES.name()) + ": '" + state
            + "' is not an instance state (pending, running, stopping, stopped, shutting-down, terminated)");
      }
    }
    ClusterLayout.fromConfig(config, AwsProperties.TASKS_PER_INSTANCE, problems);
    ImdsClient imds = new ImdsClient(imdsEndpoint != null ? imdsEndpoint : ImdsClient.DEFAULT_ENDPOINT);
    boolean imdsDisabled = imdsEndpoint == null && "true".equalsIgnoreCase(config.getenv("AWS_EC2_METADATA_DISABLED"));
    String region = config.string(AwsProperties.REGION.name());
    if (region == null) {
      region = config.getenv("AWS_REGION") != null ? config.getenv("AWS_REGION") : config.getenv("AWS_DEFAULT_REGION");
    }
    if (region == null && problems.isEmpty() && !imdsDisabled) {
      region = imds.region().orElse(null);
    }
    if (region == null) {
      problems.add(config.key(AwsProperties.REGION.name()) + " is not set and no region was found in AWS_REGION, "
          + "AWS_DEFAULT_REGION or the instance metadata: set it, like us-east-1");
    }
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(NAME, problems);
    }

    Ec2ClientBuilder ec2 = Ec2Client.builder()
        .region(Region.of(region))
        .credentialsProvider(credentials(config))
        .httpClientBuilder(UrlConnectionHttpClient.builder()
            .connectionTimeout(Duration.ofSeconds(5))
            .socketTimeout(Duration.ofSeconds(30)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
            .maxAttempts(config.integer(AwsProperties.MAX_ATTEMPTS.name())).build()));
    if (endpoint != null) {
      ec2.endpointOverride(endpoint);
    }
    Ec2MemberSource source = new Ec2MemberSource(ec2.build(), filters(config),
        AddressType.parse(config.string(AwsProperties.ADDRESS.name())), config.duration(AwsProperties.TIMEOUT.name()),
        config.integer(AwsProperties.PAGE_SIZE.name()), config.bool(AwsProperties.ACCELERATORS.name()),
        endpoint != null ? endpoint.toString() : region);
    boolean identify = !imdsDisabled;
    return MemberClusterResolver.builder(NAME, source)
        .configure(config, AwsProperties.TASKS_PER_INSTANCE)
        .selfIdentity(() -> identify ? imds.instanceId() : Optional.empty())
        .environment(NAME)
        .build();
  }

  private static List<Filter> filters(ResolverConfig config) {
    List<Filter> filters = new ArrayList<>();
    config.map(AwsProperties.TAGS.name()).forEach((k, v) ->
        filters.add(Filter.builder().name("tag:" + k).values(v).build()));
    config.optionalString(AwsProperties.ASG.name()).ifPresent(asg ->
        filters.add(Filter.builder().name("tag:aws:autoscaling:groupName").values(asg).build()));
    List<String> states = config.list(AwsProperties.STATES.name());
    if (!states.isEmpty()) {
      filters.add(Filter.builder().name("instance-state-name").values(states).build());
    }
    List<String> zones = config.list(AwsProperties.ZONES.name());
    if (!zones.isEmpty()) {
      filters.add(Filter.builder().name("availability-zone").values(zones).build());
    }
    config.optionalString(AwsProperties.VPC_ID.name()).ifPresent(vpc ->
        filters.add(Filter.builder().name("vpc-id").values(vpc).build()));
    return filters;
  }

  private static AwsCredentialsProvider credentials(ResolverConfig config) {
    Optional<String> key = config.optionalString(AwsProperties.ACCESS_KEY_ID.name());
    if (key.isPresent()) {
      String secret = config.string(AwsProperties.SECRET_ACCESS_KEY.name());
      Optional<String> session = config.optionalString(AwsProperties.SESSION_TOKEN.name());
      return StaticCredentialsProvider.create(session.isPresent()
          ? AwsSessionCredentials.create(key.get(), secret, session.get())
          : AwsBasicCredentials.create(key.get(), secret));
    }
    Optional<String> profile = config.optionalString(AwsProperties.PROFILE.name());
    if (profile.isPresent()) {
      return ProfileCredentialsProvider.create(profile.get());
    }
    return DefaultCredentialsProvider.builder().build();
  }

  private static URI uri(ResolverConfig config, String name, List<String> problems) {
    Optional<String> value = config.optionalString(name);
    if (value.isEmpty()) {
      return null;
    }
    try {
      URI uri = URI.create(value.get().trim());
      if (uri.getScheme() == null || uri.getHost() == null
          || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
        throw new IllegalArgumentException("not an http(s) URL");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      problems.add(config.key(name) + ": '" + value.get() + "' is not an http:// or https:// URL");
      return null;
    }
  }
}
