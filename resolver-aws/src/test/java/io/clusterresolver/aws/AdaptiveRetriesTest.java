package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.SimulatedEc2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code retry-mode=adaptive}: the kit's session retries the calls on the JDK's connections (no {@code Ec2Client})
 * with the waits of the SDK's adaptive strategy ({@link AdaptiveEc2}): throttling and server errors within
 * {@code max-attempts}, other errors never, the attempts counted once.
 */
class AdaptiveRetriesTest {

  private SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
    Ec2MemberSource.clearTypeCache();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  @Test
  void throttlingAndServerErrorsAreRetriedAndTheClusterIsWhole() {
    ec2.addTypical(0, 12, b -> b);
    ec2.inject(Fault.throttled().onPage(2).times(2));
    ec2.inject(Fault.serverError().onPage(3).times(1));
    assertThat(AwsTestSupport.resolver(ec2, "retry-mode", "adaptive", "page-size", "5", "shared-listing", "false")
        .clusterSpec().numTasks("worker")).isEqualTo(12);
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3 + 2 + 1);
  }

  @Test
  void throttlingThatDoesNotEndFailsAfterMaxAttempts() {
    ec2.addTypical(0, 12, b -> b);
    ec2.inject(Fault.throttled().onPage(2).always());
    Throwable thrown = catchThrowable(() -> AwsTestSupport.resolver(ec2, "retry-mode", "adaptive", "page-size", "5",
        "max-attempts", "3", "shared-listing", "false").clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("DescribeInstances (page 2)").hasMessageContaining("HTTP 503")
        .hasMessageContaining("RequestLimitExceeded").hasMessageContaining("3 attempts");
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(1 + 3);
  }

  @Test
  void rejectedCredentialsAreNotRetried() {
    ec2.addTypical(0, 2, b -> b);
    ec2.inject(Fault.credentialsRejected().always());
    Throwable thrown = catchThrowable(() -> AwsTestSupport.resolver(ec2, "retry-mode", "adaptive",
        "shared-listing", "false").clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class).hasMessageContaining("HTTP 401")
        .hasMessageContaining("1 attempt");
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(1);
  }
}
