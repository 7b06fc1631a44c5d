package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.TokenBucket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small stampede under a rate limit (the big one is the {@code Stampede} benchmark): 4 hosts × 4
 * processes against a bucket smaller than their calls; with shared listings and patient retries
 * every process gets the fleet's cluster, and the cloud sees one listing per host.
 */
class SmallStampedeTest {

  @TempDir
  Path dir;

  @Test
  void everyProcessGetsTheClusterWithOneListingPerHost() throws Exception {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 12, b -> b.instanceType("m5.large"));
      ec2.latency(Duration.ofMillis(200)); // a host's listing outlasts its processes' start
      ec2.rateLimit(TokenBucket.of(2, 2)); // far fewer tokens than the 4 hosts' 8 calls at once
      List<String> expected = ec2.instances().stream().map(i -> i.privateIpv4().orElseThrow() + ":8888")
          .collect(Collectors.toList());
      List<ClusterResolver> processes = new ArrayList<>();
      for (int host = 0; host < 4; host++) {
        for (int task = 0; task < 4; task++) {
          Map<String, String> p = AwsTestSupport.properties(ec2);
          p.remove("clusterresolver.aws.imds-endpoint");
          // Each host its own endpoint path: its own instance-type cache, as another machine would have.
          p.put("clusterresolver.aws.endpoint", ec2.endpoint() + "/host" + host);
          p.put("clusterresolver.aws.shared-listing-dir", dir.resolve("host" + host).toString());
          p.put("clusterresolver.aws.retry-mode", "adaptive");
          p.put("clusterresolver.aws.max-attempts", "20");
          p.put("clusterresolver.aws.timeout", "60s");
          processes.add(ClusterResolvers.create("aws", p, Map.of("AWS_EC2_METADATA_DISABLED", "true")));
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(processes.size());
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<List<String>>> results = new ArrayList<>();
        for (ClusterResolver r : processes) {
          results.add(pool.submit(() -> {
            go.await();
            return r.clusterSpec().jobTasks("worker");
          }));
        }
        go.countDown();
        for (Future<List<String>> f : results) {
          assertThat(f.get(90, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(ec2.callCount("DescribeInstances") - ec2.throttledCount("DescribeInstances"))
          .as("one listing (one page) per host").isEqualTo(4);
      assertThat(ec2.callCount("DescribeInstanceTypes") - ec2.throttledCount("DescribeInstanceTypes")).isEqualTo(4);
      assertThat(ec2.throttledCount()).as("the bucket did throttle").isPositive();
    }
  }
}
