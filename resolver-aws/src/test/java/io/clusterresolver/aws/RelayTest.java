package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.Together;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts of a job sharing one EC2 listing through a relay: resolvers with their own SDK clients and
 * their own host directories stand for hosts; the one that may serve binds the relay's port.
 */
class RelayTest {

  @TempDir
  Path dir;
  SimulatedEc2 ec2;
  String relay;

  @BeforeEach
  void start() throws Exception {
    ec2 = SimulatedEc2.start();
    ec2.addTypical(0, 1200, b -> b.instanceType("p4d.24xlarge").tag("Name", "n & <m>"));
    relay = Loopback.freeAddress();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private ClusterResolver host(int host, boolean serve, String... keyValues) {
    Map<String, String> p = AwsTestSupport.properties(ec2);
    p.put("clusterresolver.aws.shared-listing-dir", dir.resolve("host-" + host).toString());
    p.put("clusterresolver.aws.relay", relay);
    p.put("clusterresolver.aws.relay-secret", "0123456789abcdef-test-relay-secret");
    p.put("clusterresolver.aws.relay-serve", Boolean.toString(serve));
    p.put("clusterresolver.aws.tasks-per-instance", "accelerator");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.aws." + keyValues[i], keyValues[i + 1]);
    }
    return ClusterResolvers.create("aws", p, Map.of());
  }

  /** The cluster the fleet itself says: 8 tasks (one per A100 of a p4d.24xlarge) per instance, in launch order. */
  private List<String> fleet() {
    List<String> tasks = new ArrayList<>();
    for (var i : ec2.instances()) {
      for (int t = 0; t < 8; t++) {
        tasks.add(i.privateIpv4().orElseThrow() + ":" + (8888 + t));
      }
    }
    return tasks;
  }

  private static List<ClusterSpec> atOnce(List<ClusterResolver> resolvers) throws Exception {
    return Together.call(resolvers.stream().map(r -> (Callable<ClusterSpec>) r::clusterSpec).toList(), Duration.ofSeconds(60));
  }

  @Test
  void hostsStartingTogetherCostTheCloudOneListing() throws Exception {
    ec2.latency(Duration.ofMillis(300));
    List<ClusterResolver> hosts = new ArrayList<>();
    for (int h = 0; h < 12; h++) {
      // A minute of relay-max-age: a host that asks after the relay's listing ended (a slow machine) still takes it.
      hosts.add(host(h, h == 0, "relay-max-age", "1m", "shared-listing-max-age", "1m"));
      hosts.add(host(h, false, "relay-max-age", "1m", "shared-listing-max-age", "1m")); // a second process of the host
    }
    assertThat(atOnce(hosts)).hasSize(24)
        .allSatisfy(spec -> assertThat(spec.jobTasks("worker")).containsExactlyElementsOf(fleet()));
    assertThat(ec2.callCount("DescribeInstances")).as("one listing of two pages for twelve hosts").isEqualTo(2);
    assertThat(ec2.callCount("DescribeInstanceTypes")).isEqualTo(1);
  }

  @Test
  void withoutTheRelayEveryHostListsAndAChangeIsSeenByTheNextQuestion() throws Exception {
    // No process may serve: every host waits briefly, then lists EC2 itself.
    List<ClusterResolver> hosts = List.of(host(1, false, "relay-wait", "300ms"), host(2, false, "relay-wait", "300ms"));
    assertThat(atOnce(hosts)).allSatisfy(spec -> assertThat(spec.jobTasks("worker")).containsExactlyElementsOf(fleet()));
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(2 * 2);

    ClusterResolver relayHost = host(0, true);
    ClusterResolver other = host(3, false);
    assertThat(relayHost.clusterSpec().numTasks("worker")).isEqualTo(1200 * 8);
    ec2.remove(ec2.instances().get(0).instanceId());
    assertThat(other.clusterSpec().jobTasks("worker")).containsExactlyElementsOf(fleet()).hasSize(1199 * 8);
    assertThat(ec2.callCount("DescribeInstances")).as("relay-max-age 0: the later question is listed anew")
        .isEqualTo(4 + 2 + 2);
  }

  @Test
  void aMalformedRelayOrAWaitLongerThanTheTimeoutIsExit2NamingTheKey() {
    Map<String, String> p = AwsTestSupport.properties(ec2);
    for (String bad : List.of("10.0.0.5", "10.0.0.5:0", "10.0.0.5:70000", "10.0.0.5:7777/path", "::1:7777",
        "http://10.0.0.5:7777")) {
      p.put("clusterresolver.aws.relay", bad);
      assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of())).as(bad)
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("clusterresolver.aws.relay: '" + bad + "' is not HOST:PORT");
    }
    p.put("clusterresolver.aws.relay", "0.0.0.0:7777");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of()))
        .hasMessageContaining("clusterresolver.aws.relay: '0.0.0.0:7777' is a wildcard address");
    p.put("clusterresolver.aws.relay", "[::1]:7777");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of()))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.aws.relay needs a secret every process of the job shares")
        .hasMessageContaining("clusterresolver.aws.relay-secret");
    p.put("clusterresolver.aws.relay-secret", "0123456789abcdef-test-relay-secret");
    p.put("clusterresolver.aws.relay-wait", "30s");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of()))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.aws.relay-wait (PT30S) must be shorter than clusterresolver.aws.timeout");
    p.put("clusterresolver.aws.relay-wait", "5s");
    assertThat(ClusterResolvers.create("aws", p, Map.of())).isNotNull();
  }

}
