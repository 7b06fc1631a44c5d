package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.Resolution;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import io.clusterresolver.testkit.SimulatedInstance.State;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One resolver shared by many threads against the EC2 simulation (issue 9, concurrency). Expected
 * clusters are computed from the simulated fleet's own fields (running instances by launch time,
 * private IPv4 and port 8888), never from the resolver.
 */
class AwsConcurrencyTest {

  private static final int THREADS = 32;
  private SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  /** The worker job the fleet should give: running instances by launch time, then id. */
  private List<String> expectedWorkers() {
    return ec2.instances().stream()
        .filter(i -> i.state() == State.RUNNING)
        .sorted(Comparator.comparing(SimulatedInstance::launchTime).thenComparing(SimulatedInstance::instanceId))
        .map(i -> i.privateIpv4().orElseThrow() + ":8888")
        .collect(Collectors.toList());
  }

  @Test
  void thirtyTwoThreadsThroughOneResolverAllGetTheSingleThreadedAnswer() throws Exception {
    ec2.addTypical(0, 60, b -> b);
    ec2.identifyAs(SimulatedInstance.typical(41).build().instanceId());
    // three pages of at most 25 instances per resolve, every resolve listing for itself (threads of
    // one process would otherwise share listings in progress, which the Stampede benchmark measures)
    ClusterResolver resolver = AwsTestSupport.resolver(ec2, "page-size", "25", "shared-listing", "false");
    List<String> workers = expectedWorkers();
    Resolution single = resolver.resolve();
    assertThat(single.clusterSpec().jobTasks("worker")).containsExactlyElementsOf(workers);
    assertThat(single.taskId()).hasValue(41);

    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<List<Resolution>>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        futures.add(pool.submit(() -> {
          go.await();
          List<Resolution> answers = new ArrayList<>();
          for (int r = 0; r < 4; r++) {
            answers.add(resolver.resolve());
          }
          return answers;
        }));
      }
      go.countDown();
      int answers = 0;
      for (Future<List<Resolution>> future : futures) {
        for (Resolution answer : future.get(60, TimeUnit.SECONDS)) {
          assertThat(answer).isEqualTo(single);
          answers++;
        }
      }
      assertThat(answers).isEqualTo(THREADS * 4);
      // 1 + 128 resolves of 3 pages each: nobody skipped or repeated a page
      assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3 * (1 + THREADS * 4));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFleetChangingWhileResolvingGivesOneListingOrTheOtherNeverAMix() throws Exception {
    // Listing A: instances 10..13; listing B: A plus instance 0, launched first. This process is
    // instance 12: index 2 in A, 3 in B. A flipper stops and starts instance 0 (one atomic change).
    ec2.addTypical(10, 4, b -> b);
    ec2.add(SimulatedInstance.typical(0).build());
    String own = SimulatedInstance.typical(12).build().instanceId();
    String flipping = SimulatedInstance.typical(0).build().instanceId();
    ec2.identifyAs(own);
    List<String> listingB = expectedWorkers();
    ec2.setState(flipping, State.STOPPED);
    List<String> listingA = expectedWorkers();
    assertThat(listingA).hasSize(4);
    assertThat(listingB).hasSize(5);

    ClusterResolver resolver = AwsTestSupport.resolver(ec2);
    AtomicBoolean stop = new AtomicBoolean();
    Set<Integer> seenSizes = ConcurrentHashMap.newKeySet();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try {
      Future<?> flipper = pool.submit(() -> {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // bounded even if a reader hangs
        for (int n = 0; !stop.get() && System.nanoTime() < deadline; n++) {
          ec2.setState(flipping, n % 2 == 0 ? State.RUNNING : State.STOPPED);
          java.util.concurrent.locks.LockSupport.parkNanos(300_000);
        }
      });
      List<Future<?>> readers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        readers.add(pool.submit(() -> {
          for (int r = 0; r < 40; r++) {
            Resolution answer = resolver.resolve();
            List<String> workers = answer.clusterSpec().jobTasks("worker");
            assertThat(workers).as("a listing of the fleet").isIn(listingA, listingB);
            // this task's index comes from the same listing as the cluster it is printed with
            int expectedIndex = workers.indexOf(SimulatedInstance.typical(12).build().privateIpv4().orElseThrow()
                + ":8888");
            assertThat(answer.taskId()).as("own index in %s", workers).hasValue(expectedIndex);
            seenSizes.add(workers.size());
          }
          return null;
        }));
      }
      for (Future<?> reader : readers) {
        reader.get(60, TimeUnit.SECONDS);
      }
      stop.set(true);
      flipper.get(10, TimeUnit.SECONDS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    assertThat(seenSizes).as("both listings were resolved while the fleet changed").containsExactlyInAnyOrder(4, 5);
    assertThat(Map.of("A", listingA, "B", listingB)).hasSize(2);
  }
}
