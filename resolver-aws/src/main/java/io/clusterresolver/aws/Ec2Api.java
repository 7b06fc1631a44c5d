package io.clusterresolver.aws;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The two EC2 actions a resolve sends, once each (the caller's {@code CloudApi} session retries what the
 * implementation does not): {@link Ec2Calls} on the JDK's connections, and {@link AdaptiveEc2}, which retries them
 * itself with the SDK's adaptive strategy.
 */
interface Ec2Api {

  /**
   * One page of {@code DescribeInstances}, given to {@code read} the moment it is read (before the call ends).
   *
   * @param token the page's {@code NextToken}, or {@code null} for the first
   * @param remaining what is left of the resolve's deadline for the whole call
   */
  InstancePage describeInstances(List<Ec2Filter> filters, int pageSize, String token, Duration remaining,
      Consumer<InstancePage> read);

  /** The accelerators of at most 100 {@code types}: one {@code DescribeInstanceTypes}. */
  InstanceTypeAccelerators describeInstanceTypes(List<String> types, Duration remaining);

  /**
   * Whether the implementation retries itself (the SDK's retry strategy and {@code max-attempts}): then the session
   * must not retry too.
   */
  boolean retriesItself();
}
