package io.clusterresolver.aws;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * The EC2 actions through the SDK's {@code Ec2Client}, whose answers of 200 are read by {@link StreamingInstances}:
 * for a resolve that needs what only the SDK's client gives (see {@link AwsResolverFactory#needsSdkClient}): a proxy
 * (its url-connection client's), the adaptive retry mode (its client-side rate limit), or a FIPS or dual-stack
 * endpoint (its endpoint rules). The client retries itself ({@code max-attempts}).
 */
final class SdkEc2 implements Ec2Api {

  private final Ec2Client ec2;

  SdkEc2(Ec2Client ec2) {
    this.ec2 = ec2;
  }

  @Override
  public InstancePage describeInstances(List<Ec2Filter> filters, int pageSize, String token, Duration remaining,
      Consumer<InstancePage> read) {
    AtomicReference<InstancePage> page = new AtomicReference<>();
    ec2.describeInstances(DescribeInstancesRequest.builder()
        .filters(filters.stream().map(f -> Filter.builder().name(f.name()).values(f.values()).build()).toList())
        .maxResults(pageSize)
        .nextToken(token)
        .overrideConfiguration(c -> c.apiCallTimeout(remaining)
            .putExecutionAttribute(StreamingInstances.SINK, p -> {
              page.set(p);
              read.accept(p);
            }))
        .build());
    return Objects.requireNonNull(page.get(), "the DescribeInstances answer was not read");
  }

  @Override
  public InstanceTypeAccelerators describeInstanceTypes(List<String> types, Duration remaining) {
    AtomicReference<InstanceTypeAccelerators> sink = new AtomicReference<>();
    ec2.describeInstanceTypes(r -> r.instanceTypesWithStrings(types)
        .overrideConfiguration(c -> c.apiCallTimeout(remaining)
            .putExecutionAttribute(StreamingInstances.TYPES_SINK, sink::set)));
    return Objects.requireNonNull(sink.get(), "the DescribeInstanceTypes answer was not read");
  }

  @Override
  public boolean retriesItself() {
    return true;
  }
}
