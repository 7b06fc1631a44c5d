package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.Together;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hosts sharing one listing through a relay on loopback (each {@link ListingRelay} stands for a host). */
class ListingRelayTest {

  private static final String QUERY = "test 1|eu-west-1|tag:cluster=a";
  static final ListingSeal SEAL = ListingSeal.of("the job's relay secret, 32+ chars".getBytes(StandardCharsets.UTF_8));

  /** The cloud: a fleet that can change, counting its listings, slow enough that questions overlap. */
  private final AtomicReference<List<Member>> fleet = new AtomicReference<>();
  private final AtomicInteger listings = new AtomicInteger();
  private volatile long listingMillis = 300;
  private final MemberSource cloud = () -> {
    listings.incrementAndGet();
    List<Member> now = fleet.get();
    sleep(listingMillis);
    return now;
  };
  /** What a host lists without the relay (counted apart). */
  private final AtomicInteger fallbacks = new AtomicInteger();
  private final MemberSource fallback = () -> {
    fallbacks.incrementAndGet();
    return fleet.get();
  };

  private InetSocketAddress relay;

  @BeforeEach
  void fleetAndAddress() throws IOException {
    fleet.set(members(40));
    relay = new InetSocketAddress("127.0.0.1", Loopback.freePort());
  }

  @AfterEach
  void stopServing() {
    RelayServer.stopAll();
  }

  /** Members with every field a listing carries, some absent, and texts that need escaping. */
  private static List<Member> members(int n) {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Member.Builder m = Member.builder("i-" + Integer.toHexString(0x1000 + i), "10.0." + (i / 250) + "." + (i % 250))
          .label("cluster", "a")
          .label("rôle", i % 2 == 0 ? "worker" : "ps & <chief>");
      if (i % 3 != 0) {
        m.creationTime(Instant.parse("2026-11-24T10:00:00Z").plusMillis(i * 1_001L)).name("node-" + i);
      }
      if (i % 4 == 0) {
        m.accelerators("GPU", 8);
      }
      members.add(m.build());
    }
    return List.copyOf(members);
  }

  private MemberSource host(boolean serve, String query, Duration maxAge, Duration wait) {
    return host(serve, query, maxAge, wait, cloud);
  }

  private MemberSource host(boolean serve, String query, Duration maxAge, Duration wait, MemberSource cloud) {
    ListingRelay relayed = new ListingRelay("test", relay, query, maxAge, wait, System::currentTimeMillis, SEAL);
    return serve ? relayed.serving(cloud, relayed.asking(fallback)) : relayed.asking(fallback);
  }

  private MemberSource host(boolean serve) {
    return host(serve, QUERY, Duration.ZERO, Duration.ofSeconds(10));
  }

  private static List<List<Member>> atOnce(List<? extends MemberSource> hosts) throws Exception {
    return Together.call(hosts.stream().map(h -> (Callable<List<Member>>) h::members).toList(), Duration.ofSeconds(60));
  }

  @Test
  void hostsThatAskTogetherGetOneListingWithEveryField() throws Exception {
    List<Member> expected = fleet.get();
    List<MemberSource> hosts = new ArrayList<>();
    hosts.add(host(true));
    for (int i = 0; i < 24; i++) {
      hosts.add(host(false));
    }
    hosts.get(0).members(); // the relay is up and has listed once
    assertThat(listings).hasValue(1);

    listingMillis = 2000; // long enough that every host asks while it is in progress, even on a busy machine
    assertThat(atOnce(hosts)).hasSize(25).allSatisfy(m -> assertThat(m).isEqualTo(expected));
    assertThat(listings).as("one more listing for all 25 hosts").hasValue(2);
    assertThat(fallbacks).hasValue(0);
  }

  @Test
  void aZeroMaxAgeListsAgainForALaterQuestionAndSeesTheChange() {
    MemberSource server = host(true);
    MemberSource other = host(false);
    assertThat(server.members()).isEqualTo(fleet.get());
    fleet.set(members(39));
    assertThat(other.members()).hasSize(39).isEqualTo(fleet.get());
    assertThat(listings).hasValue(2);
  }

  @Test
  void aMaxAgeTakesTheRelaysRecentListingAsItIs() {
    List<Member> before = fleet.get();
    host(true).members();
    fleet.set(members(39));
    // Begun less than an hour ago on the relay's clock: the documented trade of a max age.
    assertThat(host(false, QUERY, Duration.ofHours(1), Duration.ofSeconds(5)).members()).isEqualTo(before);
    assertThat(listings).hasValue(1);
  }

  @Test
  void aRelayThatIsNotListeningYetIsWaitedFor() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<List<Member>> early = pool.submit(() -> host(false).members());
      sleep(400); // the host asks (connection refused) before the relay's process starts
      assertThat(early.isDone()).isFalse();
      host(true).members();
      assertThat(early.get(30, TimeUnit.SECONDS)).isEqualTo(fleet.get());
      assertThat(fallbacks).hasValue(0);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void withNoRelayListeningAHostListsItselfAfterTheWait() {
    long start = System.nanoTime();
    assertThat(host(false, QUERY, Duration.ZERO, Duration.ofMillis(600)).members()).isEqualTo(fleet.get());
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(600);
    assertThat(fallbacks).hasValue(1);
    assertThat(listings).hasValue(0);
  }

  @Test
  void aFailedListingOnTheRelayMakesEachHostListForItself() {
    MemberSource failing = () -> {
      throw new ClusterResolverException("test: DescribeInstances failed: HTTP 503 RequestLimitExceeded");
    };
    MemberSource server = host(true, QUERY, Duration.ZERO, Duration.ofSeconds(5), failing);
    assertThatThrownBy(server::members).isInstanceOf(ClusterResolverException.class).hasMessageContaining("HTTP 503");
    assertThat(host(false).members()).isEqualTo(fleet.get());
    assertThat(fallbacks).hasValue(1);
  }

  @Test
  void aRelayListingAnotherQueryIsNotTakenForThisOne() {
    host(true).members();
    assertThat(host(false, QUERY + "|tag:team=ml", Duration.ofHours(1), Duration.ofSeconds(5)).members())
        .isEqualTo(fleet.get());
    assertThat(fallbacks).hasValue(1);
    assertThat(listings).hasValue(1);
  }

  @Test
  void somethingElseOnThePortIsNeverTakenForAListing() throws Exception {
    byte[] listing = listingBytes(SharedListing.digest(QUERY));
    // Sealed with the job's secret, as a holder of it would: the host still checks what it decodes.
    List<Answer> answers = List.of(
        new Answer(200, "text/html", "<html>captive portal</html>".getBytes(StandardCharsets.UTF_8)),
        new Answer(200, RelayServer.CONTENT_TYPE, java.util.Arrays.copyOf(listing, listing.length / 2)),
        new Answer(200, RelayServer.CONTENT_TYPE, concat(listing, new byte[] {1})),
        new Answer(200, RelayServer.CONTENT_TYPE, listingBytes(SharedListing.digest("another query"))),
        new Answer(500, "text/plain", "oops".getBytes(StandardCharsets.UTF_8)));
    for (Answer answer : answers) {
      HttpServer impostor = HttpServer.create(relay, 0);
      impostor.createContext("/", exchange -> answer(exchange, answer.status(), answer.type(), answer.body(), SEAL));
      impostor.start();
      try {
        int before = fallbacks.get();
        assertThat(host(false).members()).as(answer.toString()).isEqualTo(fleet.get());
        assertThat(fallbacks.get()).as(answer.toString()).isEqualTo(before + 1);
      } finally {
        impostor.stop(0);
      }
    }
    // The genuine bytes, served by the same impostor, are a listing: the check above is not "anything fails".
    HttpServer genuine = HttpServer.create(relay, 0);
    genuine.createContext("/", exchange -> answer(exchange, 200, RelayServer.CONTENT_TYPE, listing, SEAL));
    genuine.start();
    try {
      int before = fallbacks.get();
      assertThat(host(false).members()).isEqualTo(fleet.get());
      assertThat(fallbacks).hasValue(before);
    } finally {
      genuine.stop(0);
    }
  }

  /** Answers as a relay holding {@code seal}'s secret would (encrypted; plain with a checksum when unkeyed; as is when {@code seal} is null). */
  static void answer(com.sun.net.httpserver.HttpExchange exchange, int status, String type, byte[] body,
      ListingSeal seal) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    if (seal != null) {
      exchange.getResponseHeaders().set(RelayServer.AGE_HEADER, "5");
      if (!seal.keyed()) {
        exchange.getResponseHeaders().set(RelayServer.SEAL_HEADER, java.util.HexFormat.of().formatHex(
            RelayServer.answerSeal(seal, requestSeal(exchange), "5", RelayServer.bodySeal(seal, body))));
      }
    }
    byte[] sent = seal == null ? body : RelayServer.answerBody(seal, requestSeal(exchange), "5", body);
    exchange.sendResponseHeaders(status, sent.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(sent);
    }
  }

  private static String requestSeal(com.sun.net.httpserver.HttpExchange exchange) {
    return java.util.Objects.requireNonNullElse(exchange.getRequestHeaders().getFirst(RelayServer.SEAL_HEADER), "");
  }

  private record Answer(int status, String type, byte[] body) {
    @Override
    public String toString() {
      return "HTTP " + status + " " + type + ", " + body.length + " bytes";
    }
  }

  private byte[] listingBytes(String query) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
      new Listing(1, 2, fleet.get()).writeTo(out, query);
    }
    return bytes.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void aHostThatMayNotServeAsksEvenWhenItCouldBind() {
    assertThat(host(false, QUERY, Duration.ZERO, Duration.ofMillis(300)).members()).isEqualTo(fleet.get());
    assertThat(fallbacks).hasValue(1);
    assertThat(listings).as("it never listed as the relay").hasValue(0);
  }

  @Test
  void theRelaysThreadsNeverKeepTheProcessAlive() {
    host(true).members();
    List<Thread> relayThreads = Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("cluster-resolver-relay") || t.getName().startsWith("HTTP-Dispatcher"))
        .toList();
    assertThat(relayThreads).isNotEmpty().allSatisfy(t -> assertThat(t.isDaemon()).as(t.getName()).isTrue());
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
