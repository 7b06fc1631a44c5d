package io.clusterresolver.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.runtime.TaskServer;
import io.clusterresolver.runtime.rpc.StatusRequest;
import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A {@code cluster://aws/worker} channel against a simulated EC2 fleet whose members run real
 * {@link TaskServer}s on loopback addresses 127.0.0.2 and up: as the fleet grows from 3 to 5 members
 * and shrinks to 2, the tasks the channel's round_robin reaches follow, through the periodic refresh.
 */
class ChannelFollowsTheFleetTest {

  private static final int MEMBERS = 5;
  private static SimulatedEc2 ec2;
  private static int port;
  private static final List<TaskServer> servers = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    ec2 = SimulatedEc2.start();
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = probe.getLocalPort();
    }
    ClusterSpec all = ClusterSpec.builder().addJob("worker",
        IntStream.range(0, MEMBERS).mapToObj(i -> address(i) + ":" + port).toList()).build();
    for (int i = 0; i < MEMBERS; i++) {
      servers.add(TaskServer.builder(all, "worker", i).bindAddress(InetAddress.getByName(address(i))).port(port).start());
    }
  }

  @AfterAll
  static void stop() {
    servers.forEach(TaskServer::close);
    ec2.close();
  }

  /** Member {@code i} of the fleet, launched in index order. */
  private static String address(int i) {
    return "127.0.0." + (i + 2);
  }

  private static void fleetOf(int n) {
    ec2.clear();
    for (int i = 0; i < n; i++) {
      ec2.add(SimulatedInstance.typical(i).privateIpv4(address(i)).build());
    }
  }

  @Test
  void theChannelReachesExactlyTheMembersAsTheFleetGrowsAndShrinks() throws Exception {
    fleetOf(3);
    StringBuilder target = new StringBuilder("cluster://aws/worker?refresh-interval=1s&min-refresh-interval=1s");
    Map<String, String> properties = new java.util.LinkedHashMap<>(ec2.providerProperties());
    properties.put("clusterresolver.aws.region", "us-east-1");
    properties.put("clusterresolver.aws.access-key-id", "AKIAEXAMPLESIMULATED");
    properties.put("clusterresolver.aws.secret-access-key", "simulated/secret/key");
    properties.put("clusterresolver.aws.port", String.valueOf(port));
    properties.forEach((k, v) -> target.append('&').append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    ManagedChannel channel = ManagedChannelBuilder.forTarget(target.toString()).usePlaintext()
        .defaultLoadBalancingPolicy("round_robin").build();
    try {
      assertThat(awaitReached(channel, Set.of(0, 1, 2))).containsExactly(0, 1, 2);
      fleetOf(5);
      assertThat(awaitReached(channel, Set.of(0, 1, 2, 3, 4))).containsExactly(0, 1, 2, 3, 4);
      fleetOf(2);
      assertThat(awaitReached(channel, Set.of(0, 1))).containsExactly(0, 1);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * Calls the job in rounds of 20 until one round reaches exactly {@code expected} (the task indices
   * the servers report about themselves), for at most 60 s; returns the last round's set. A call may
   * wait 30 s: the first one waits for the first resolve, which starts the AWS SDK cold (slow on a busy
   * machine).
   */
  private static Set<Integer> awaitReached(ManagedChannel channel, Set<Integer> expected) throws InterruptedException {
    TaskServiceGrpc.TaskServiceBlockingStub stub = TaskServiceGrpc.newBlockingStub(channel);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    Set<Integer> reached = Set.of();
    while (System.nanoTime() < deadline) {
      reached = IntStream.range(0, 20)
          .mapToObj(i -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).getStatus(StatusRequest.getDefaultInstance())
              .getTaskIndex())
          .collect(Collectors.toCollection(TreeSet::new));
      if (reached.equals(expected)) {
        return reached;
      }
      Thread.sleep(100);
    }
    return reached;
  }
}
