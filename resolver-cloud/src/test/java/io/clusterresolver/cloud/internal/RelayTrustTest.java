package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.testkit.Loopback;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's defences against a hostile process (issue 20, attacks 2 to 5): one that binds the
 * relay's address first and forges, replays, stalls or floods, and clients without the job's secret.
 * Each would hand every host the wrong cluster, hang it, or burn the cloud's quota on {@code main}.
 */
class RelayTrustTest {

  private static final String QUERY = "test 1|eu-west-1|tag:cluster=a";
  private static final String DIGEST = SharedListing.digest(QUERY);
  private static final ListingSeal SEAL = ListingRelayTest.SEAL;

  /** The true fleet, from the cloud; what a forger serves instead. */
  private static final List<Member> FLEET = members("10.0.0.", 4);
  private static final List<Member> FORGED = members("6.6.6.", 4);

  private final AtomicInteger cloudListings = new AtomicInteger();
  private final MemberSource cloud = () -> {
    cloudListings.incrementAndGet();
    return FLEET;
  };
  private final AtomicInteger fallbacks = new AtomicInteger();
  private final MemberSource fallback = () -> {
    fallbacks.incrementAndGet();
    return FLEET;
  };

  private InetSocketAddress relay;
  private final WarningCapture capture = new WarningCapture();
  private final List<LogRecord> warnings = capture.warnings();

  @BeforeEach
  void setUp() {
    relay = new InetSocketAddress("127.0.0.1", Loopback.freePort());
    capture.attach();
  }

  @AfterEach
  void tearDown() {
    capture.detach();
    RelayServer.stopAll();
  }

  private static List<Member> members(String prefix, int n) {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      members.add(Member.builder("i-" + i, prefix + i).label("cluster", "a").build());
    }
    return List.copyOf(members);
  }

  private ListingRelay relayed(ListingSeal seal, Duration wait) {
    return new ListingRelay("test", relay, QUERY, Duration.ZERO, wait, System::currentTimeMillis, seal);
  }

  private static byte[] listingBytes(List<Member> members) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      new Listing(System.currentTimeMillis(), System.currentTimeMillis(), members).writeTo(out, DIGEST);
    }
    return bytes.toByteArray();
  }

  /** A process that bound the relay's address first and answers every request with {@code members}. */
  private HttpServer forger(List<Member> members, ListingSeal sealWith) throws IOException {
    byte[] body = listingBytes(members);
    HttpServer forger = HttpServer.create(relay, 0);
    // It echoes the query header, as attack 2 did: the query digest follows from the configuration.
    forger.createContext("/", exchange -> ListingRelayTest.answer(exchange, 200, RelayServer.CONTENT_TYPE, body,
        sealWith));
    forger.start();
    return forger;
  }

  private void assertOneWarningNamingTheRelay() {
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0).getMessage()).contains("127.0.0.1:" + relay.getPort()).contains("listing the cloud");
  }

  @Test
  void attack2_aForgerHoldingThePortIsNeverTakenForTheRelay() throws Exception {
    HttpServer forger = forger(FORGED, null); // no secret: no seal, or...
    try {
      assertThat(relayed(SEAL, Duration.ofSeconds(5)).asking(fallback).members()).isEqualTo(FLEET);
      assertOneWarningNamingTheRelay();
      assertThat(warnings.get(0).getMessage()).contains("without proving the relay secret");
    } finally {
      forger.stop(0);
    }
    warnings.clear();
    HttpServer guesser = forger(FORGED, ListingSeal.of("a guessed secret, not the job's".getBytes(StandardCharsets.UTF_8)));
    try {
      assertThat(relayed(SEAL, Duration.ofSeconds(5)).asking(fallback).members()).isEqualTo(FLEET);
      assertOneWarningNamingTheRelay();
    } finally {
      guesser.stop(0);
    }
    assertThat(fallbacks).hasValue(2);
  }

  @Test
  void attack2_theProcessMeantToServeVerifiesWhoeverHoldsItsAddress() throws Exception {
    HttpServer forger = forger(FORGED, null);
    try {
      ListingRelay server = relayed(SEAL, Duration.ofSeconds(5));
      // relay-serve=true, the default: it cannot bind, so it asks the holder, and does not take its word.
      assertThat(server.serving(cloud, server.asking(fallback)).members()).isEqualTo(FLEET);
      assertThat(ListingRelay.servedHere()).doesNotContain(relay);
      assertOneWarningNamingTheRelay();
    } finally {
      forger.stop(0);
    }
  }

  @Test
  void attack2_aRecordedGenuineAnswerIsNotTakenForAnotherRequest() throws Exception {
    // A genuine relay with the secret answers one request; a forger then replays that whole answer.
    ListingRelay genuine = relayed(SEAL, Duration.ofSeconds(5));
    genuine.serving(cloud, genuine.asking(fallback)).members();
    HttpResponse<byte[]> recorded = HttpClient.newHttpClient().send(sealedRequest(SEAL, "nonce-recorded-0001"),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(recorded.statusCode()).isEqualTo(200);
    RelayServer.stopAll();
    HttpServer replayer = HttpServer.create(relay, 0);
    replayer.createContext("/", exchange -> {
      recorded.headers().map().forEach((k, v) -> {
        if (k != null && k.startsWith("Cluster-Resolver") || "Content-Type".equalsIgnoreCase(k)) {
          exchange.getResponseHeaders().put(k, v);
        }
      });
      exchange.sendResponseHeaders(200, recorded.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(recorded.body());
      }
    });
    replayer.start();
    try {
      assertThat(relayed(SEAL, Duration.ofSeconds(5)).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(fallbacks).hasValue(1);
      assertOneWarningNamingTheRelay();
    } finally {
      replayer.stop(0);
    }
  }

  @Test
  void attack3_aRelayThatStallsMidBodyIsGivenUpWithinTheWait() throws Exception {
    byte[] body = listingBytes(FORGED);
    try (Hostile stall = new Hostile(relay, out -> {
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + RelayServer.CONTENT_TYPE + "\r\nContent-Length: "
          + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, body.length / 2);
      out.flush();
      Thread.sleep(120_000); // and then nothing: the connection stays open
    })) {
      long start = System.nanoTime();
      assertThat(relayed(SEAL, Duration.ofSeconds(2)).asking(fallback).members()).isEqualTo(FLEET);
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(tookMs).as("one deadline for headers and body (2 s)").isLessThan(10_000);
      assertOneWarningNamingTheRelay();
      assertThat(warnings.get(0).getMessage()).contains("did not answer within 2000 ms");
    }
  }

  @Test
  void attack4_anEndlessRelayAnswerStopsAtTheLimit() throws Exception {
    byte[] chunk = new byte[1 << 16];
    try (Hostile endless = new Hostile(relay, out -> {
      // "2^31 members" streamed without end, in chunks: no length to refuse up front.
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + RelayServer.CONTENT_TYPE
          + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      for (long sent = 0; sent < 8L << 30; sent += chunk.length) { // bounded: 8 GiB at most
        out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(chunk);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
    })) {
      long start = System.nanoTime();
      assertThat(relayed(SEAL, Duration.ofSeconds(60)).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(60);
      assertOneWarningNamingTheRelay();
      assertThat(warnings.get(0).getMessage()).contains("more than " + ListingRelay.MAX_ANSWER_BYTES + " bytes");
    }
  }

  @Test
  void attack4_aRelayAnswerAnnouncingMoreThanTheLimitIsNotRead() throws Exception {
    try (Hostile huge = new Hostile(relay, out -> {
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + RelayServer.CONTENT_TYPE + "\r\nContent-Length: "
          + (1L << 40) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      Thread.sleep(120_000);
    })) {
      long start = System.nanoTime();
      assertThat(relayed(SEAL, Duration.ofSeconds(30)).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).as("refused at once").isLessThan(10);
      assertThat(warnings.get(0).getMessage()).contains("more than " + ListingRelay.MAX_ANSWER_BYTES + " bytes");
    }
  }

  @Test
  void attack5_theRelayAnswersOnlyRequestsThatProveTheSecretAndNeverListsForOthers() throws Exception {
    ListingRelay server = relayed(SEAL, Duration.ofSeconds(5));
    server.serving(cloud, server.asking(fallback)).members();
    assertThat(cloudListings).hasValue(1);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    // The digest alone (attack 5 on main): refused, nothing listed, no member in the answer.
    HttpResponse<String> bare = http.send(HttpRequest.newBuilder(uri()).header(RelayServer.QUERY_HEADER, DIGEST)
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(bare.statusCode()).isEqualTo(401);
    assertThat(bare.body()).doesNotContain("10.0.0.");
    // Another secret.
    ListingSeal other = ListingSeal.of("another job's secret, long enough".getBytes(StandardCharsets.UTF_8));
    assertThat(http.send(sealedRequest(other, "nonce-other-000001"), HttpResponse.BodyHandlers.ofString())
        .statusCode()).isEqualTo(401);
    // The job's secret: answered, with a listing made for this request.
    HttpRequest genuine = sealedRequest(SEAL, "nonce-genuine-00001");
    HttpResponse<byte[]> answered = http.send(genuine, HttpResponse.BodyHandlers.ofByteArray());
    assertThat(answered.statusCode()).isEqualTo(200);
    assertThat(cloudListings).hasValue(2);
    // The same request again (recorded and replayed): refused, nothing listed.
    HttpResponse<String> replay = http.send(genuine, HttpResponse.BodyHandlers.ofString());
    assertThat(replay.statusCode()).isEqualTo(401);
    assertThat(replay.body()).contains("seen before");
    // A request made an hour ago (or on a clock an hour off).
    String old = Long.toString(System.currentTimeMillis() - 3_600_000);
    assertThat(http.send(sealedRequest(SEAL, "nonce-old-00000001", old), HttpResponse.BodyHandlers.ofString())
        .body()).contains("ms from the relay's clock");
    // A flood of requests without the secret costs no listing.
    for (int i = 0; i < 200; i++) {
      assertThat(http.send(sealedRequest(other, "flood-" + i), HttpResponse.BodyHandlers.discarding()).statusCode())
          .isEqualTo(401);
    }
    assertThat(cloudListings).as("only the genuine request listed").hasValue(2);
  }

  @Test
  void insecureRelaysStillWorkTogetherButNotWithASecretOne() {
    ListingRelay insecure = relayed(ListingSeal.unkeyed(), Duration.ofSeconds(5));
    insecure.serving(cloud, insecure.asking(fallback)).members();
    assertThat(relayed(ListingSeal.unkeyed(), Duration.ofSeconds(5)).asking(fallback).members()).isEqualTo(FLEET);
    assertThat(fallbacks).hasValue(0);
    // A host with the secret never takes an insecure relay's word.
    assertThat(relayed(SEAL, Duration.ofSeconds(5)).asking(fallback).members()).isEqualTo(FLEET);
    assertThat(fallbacks).hasValue(1);
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + relay.getPort() + RelayServer.PATH + "?max-age-ms=0");
  }

  private HttpRequest sealedRequest(ListingSeal seal, String nonce) {
    return sealedRequest(seal, nonce, Long.toString(System.currentTimeMillis()));
  }

  private HttpRequest sealedRequest(ListingSeal seal, String nonce, String time) {
    String target = RelayServer.PATH + "?max-age-ms=0";
    return HttpRequest.newBuilder(uri())
        .header(RelayServer.QUERY_HEADER, DIGEST)
        .header(RelayServer.TIME_HEADER, time)
        .header(RelayServer.NONCE_HEADER, nonce)
        .header(RelayServer.SEAL_HEADER, HexFormat.of().formatHex(RelayServer.requestSeal(seal, target, DIGEST, time,
            nonce)))
        .build();
  }

  /** A raw TCP server on the relay's address that answers every connection with {@code script}. */
  private static final class Hostile implements AutoCloseable {
    interface Script {
      void run(OutputStream out) throws Exception;
    }

    private final ServerSocket socket;
    private final Thread thread;
    private final AtomicReference<Socket> client = new AtomicReference<>();

    Hostile(InetSocketAddress address, Script script) throws IOException {
      socket = new ServerSocket();
      socket.bind(address);
      thread = new Thread(() -> {
        try (Socket s = socket.accept()) {
          client.set(s);
          InputStream in = s.getInputStream();
          in.read(new byte[8192]); // the request
          script.run(s.getOutputStream());
        } catch (Exception e) {
          // the host hung up: what the test wants
        }
      }, "hostile-relay");
      thread.setDaemon(true);
      thread.start();
    }

    @Override
    public void close() throws Exception {
      socket.close();
      Socket s = client.get();
      if (s != null) {
        s.close();
      }
      thread.interrupt();
      thread.join(10_000);
    }
  }
}
