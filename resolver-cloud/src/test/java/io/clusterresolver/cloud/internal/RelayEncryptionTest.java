package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.testkit.Loopback;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
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
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's answers on the network (issue 20): encrypted under a key derived from the job's secret,
 * so that whoever reads the packets between a host and the relay reads no member, and a changed bit
 * makes the host list the cloud itself. The path is a real TCP forwarder between a real relay and a
 * real host; the key derivation is checked against RFC 5869's own test vectors.
 */
class RelayEncryptionTest {

  private static final String QUERY = "test 1|eu-west-1|tag:cluster=a";
  private static final ListingSeal SEAL = ListingRelayTest.SEAL;
  private static final List<Member> FLEET = members();

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
  private final WarningCapture capture = new WarningCapture();
  private final List<LogRecord> warnings = capture.warnings();
  private InetSocketAddress relay;

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

  private static List<Member> members() {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      members.add(Member.builder("i-secret" + i, "10.0.7." + (11 + i)).label("cluster", "a").build());
    }
    return List.copyOf(members);
  }

  private ListingRelay at(InetSocketAddress address, ListingSeal seal) {
    return new ListingRelay("test", address, QUERY, Duration.ZERO, Duration.ofSeconds(5), System::currentTimeMillis,
        seal);
  }

  /** Starts the relay on {@code relay}: its process lists once. */
  private void serve(ListingSeal seal) {
    ListingRelay server = at(relay, seal);
    assertThat(server.serving(cloud, server.asking(fallback)).members()).isEqualTo(FLEET);
  }

  @Test
  void whoReadsThePacketsReadsNoMemberOfTheListing() throws Exception {
    serve(SEAL);
    try (OnThePath sniffer = new OnThePath(relay, false)) {
      assertThat(at(sniffer.address(), SEAL).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(fallbacks).as("the host took the relay's answer").hasValue(0);
      String seen = sniffer.seen();
      assertThat(seen).contains("200 OK");
      for (Member m : FLEET) {
        assertThat(seen).doesNotContain(m.address()).doesNotContain(m.id());
      }
    }
  }

  @Test
  void anInsecureRelaysAnswerIsReadableOnThePathAsTheUserChose() throws Exception {
    // The sniffer above is not blind: with relay-insecure=true it reads every address.
    serve(ListingSeal.unkeyed());
    try (OnThePath sniffer = new OnThePath(relay, false)) {
      assertThat(at(sniffer.address(), ListingSeal.unkeyed()).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(fallbacks).hasValue(0);
      for (Member m : FLEET) {
        assertThat(sniffer.seen()).contains(m.address());
      }
    }
  }

  @Test
  void aBitFlippedOnThePathMakesTheHostListTheCloudWithOneWarning() throws Exception {
    serve(SEAL);
    int listed = cloudListings.get();
    try (OnThePath flipper = new OnThePath(relay, true)) {
      assertThat(at(flipper.address(), SEAL).asking(fallback).members()).isEqualTo(FLEET);
      assertThat(flipper.flipped()).as("the answer passed the flipper").isEqualTo(1);
      assertThat(fallbacks).as("listed the cloud itself").hasValue(1);
      assertThat(cloudListings.get()).as("the relay listed for the request").isEqualTo(listed + 1);
      assertThat(warnings).hasSize(1);
      assertThat(warnings.get(0).getMessage()).contains("127.0.0.1:" + flipper.address().getPort())
          .contains("without proving the relay secret").contains("listing the cloud");
    }
  }

  @Test
  void aHostOfThePreviousProtocolIsToldWhyItGetsNoListing() throws Exception {
    serve(SEAL);
    HttpResponse<String> v1 = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + relay.getPort() + "/cluster-resolver/v1/members?max-age-ms=0")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(v1.statusCode()).isEqualTo(410);
    assertThat(v1.body()).contains("v2").contains("same cluster-resolver version");
  }

  @Test
  void eachAnswerHasItsOwnNonceAndOpensOnlyForItsRequestAndSecret() {
    byte[] listing = "10.0.7.11 10.0.7.12".getBytes(StandardCharsets.UTF_8);
    byte[] first = RelayServer.answerBody(SEAL, "aa", "5", listing);
    byte[] second = RelayServer.answerBody(SEAL, "aa", "5", listing);
    assertThat(first).hasSize(ListingSeal.NONCE_LENGTH + listing.length + 16);
    assertThat(java.util.Arrays.copyOf(first, 12)).isNotEqualTo(java.util.Arrays.copyOf(second, 12));
    assertThat(RelayServer.openAnswer(SEAL, "aa", "5", first, null)).isEqualTo(listing);
    assertThat(RelayServer.openAnswer(SEAL, "bb", "5", first, null)).as("another request's answer").isNull();
    assertThat(RelayServer.openAnswer(SEAL, "aa", "6", first, null)).as("another age").isNull();
    ListingSeal other = ListingSeal.of("another job's secret, long enough".getBytes(StandardCharsets.UTF_8));
    assertThat(RelayServer.openAnswer(other, "aa", "5", first, null)).as("another secret").isNull();
  }

  /** RFC 5869, appendix A, test cases 1 and 3 (SHA-256). */
  @Test
  void keysAreDerivedWithHkdfSha256AsRfc5869Specifies() {
    HexFormat hex = HexFormat.of();
    byte[] ikm = hex.parseHex("0b".repeat(22));
    byte[] prk = ListingSeal.hkdfExtract(hex.parseHex("000102030405060708090a0b0c"), ikm);
    assertThat(hex.formatHex(prk)).isEqualTo("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5");
    assertThat(hex.formatHex(ListingSeal.hkdfExpand(prk, hex.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42))).isEqualTo(
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    byte[] prk3 = ListingSeal.hkdfExtract(new byte[0], ikm);
    assertThat(hex.formatHex(prk3)).isEqualTo("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04");
    assertThat(hex.formatHex(ListingSeal.hkdfExpand(prk3, new byte[0], 42))).isEqualTo(
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
  }

  /** RFC 4231 test cases 1, 2 and 6 (HMAC-SHA-256), and the JDK's {@code Mac} for keys of every length class. */
  @Test
  void theHmacIsHmacSha256AsRfc4231AndTheJdkCompute() throws Exception {
    HexFormat hex = HexFormat.of();
    assertThat(hex.formatHex(ListingSeal.hmac(hex.parseHex("0b".repeat(20)), ListingSeal.utf8("Hi There"))))
        .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    assertThat(hex.formatHex(ListingSeal.hmac(ListingSeal.utf8("Jefe"), ListingSeal.utf8("what do ya want for nothing?"))))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    assertThat(hex.formatHex(ListingSeal.hmac(hex.parseHex("aa".repeat(131)),
        ListingSeal.utf8("Test Using Larger Than Block-Size Key - Hash Key First"))))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    java.util.Random random = new java.util.Random(23);
    for (int keyLength : new int[] {1, 32, 63, 64, 65, 200}) {
      byte[] key = new byte[keyLength];
      byte[] data = new byte[random.nextInt(300)];
      random.nextBytes(key);
      random.nextBytes(data);
      javax.crypto.Mac jdk = javax.crypto.Mac.getInstance("HmacSHA256");
      jdk.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      assertThat(ListingSeal.hmac(key, data)).as("key of %d bytes", keyLength).isEqualTo(jdk.doFinal(data));
    }
    // An empty key is HMAC's zero-padded key, as the JDK computes it for 32 zero bytes.
    javax.crypto.Mac zeros = javax.crypto.Mac.getInstance("HmacSHA256");
    zeros.init(new javax.crypto.spec.SecretKeySpec(new byte[32], "HmacSHA256"));
    assertThat(ListingSeal.hmac(new byte[0], ListingSeal.utf8("x"))).isEqualTo(zeros.doFinal(ListingSeal.utf8("x")));
  }

  /**
   * A TCP forwarder on a port of its own to the relay, one exchange per connection: it records what
   * passes, and may flip one bit in the middle of each answer's body.
   */
  private static final class OnThePath implements AutoCloseable {
    private final ServerSocket socket;
    private final ByteArrayOutputStream seen = new ByteArrayOutputStream();
    private final AtomicInteger flipped = new AtomicInteger();
    private final Thread thread;

    OnThePath(InetSocketAddress relay, boolean flip) throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      thread = new Thread(() -> {
        for (int exchanges = 0; exchanges < 100; exchanges++) { // bounded
          try (Socket host = socket.accept(); Socket upstream = new Socket(relay.getAddress(), relay.getPort())) {
            host.setSoTimeout(10_000);
            upstream.setSoTimeout(10_000);
            byte[] request = head(host.getInputStream());
            upstream.getOutputStream().write(request);
            byte[] head = head(upstream.getInputStream());
            byte[] body = upstream.getInputStream().readNBytes(contentLength(head));
            synchronized (seen) {
              seen.writeBytes(request);
              seen.writeBytes(head);
              seen.writeBytes(body);
            }
            if (flip && body.length > 0) {
              body[body.length / 2] ^= 0x01;
              flipped.incrementAndGet();
            }
            host.getOutputStream().write(head);
            host.getOutputStream().write(body);
            host.getOutputStream().flush();
          } catch (IOException e) {
            return; // closed
          }
        }
      }, "on-the-path");
      thread.setDaemon(true);
      thread.start();
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", socket.getLocalPort());
    }

    String seen() {
      synchronized (seen) {
        return seen.toString(StandardCharsets.ISO_8859_1);
      }
    }

    int flipped() {
      return flipped.get();
    }

    /** The bytes up to and including the blank line that ends an HTTP head. */
    private static byte[] head(InputStream in) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int matched = 0;
      while (matched < 4 && out.size() < 65_536) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("closed");
        }
        out.write(b);
        matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      return out.toByteArray();
    }

    private static int contentLength(byte[] head) {
      for (String line : new String(head, StandardCharsets.ISO_8859_1).split("\r\n")) {
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          return Integer.parseInt(line.substring("content-length:".length()).trim());
        }
      }
      return 0;
    }

    @Override
    public void close() throws Exception {
      socket.close();
      thread.join(10_000);
    }
  }
}
