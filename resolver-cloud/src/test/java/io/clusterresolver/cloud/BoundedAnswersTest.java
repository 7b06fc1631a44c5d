package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BoundedAnswersTest {

  private static final List<ConfigProperty<?>> PROPS = List.of(CloudProperties.MAX_ANSWER_MIB, CloudProperties.TIMEOUT);
  private static final CloudApi API = CloudApi.builder("demo",
      e -> ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, e.getMessage(), 1)).retryPolicy(RetryPolicy.none()).build();

  private static BoundedAnswers fromConfig(Map<String, String> props) {
    return BoundedAnswers.of(ResolverConfig.resolve("demo", PROPS,
        PropertySources.of(props, Map.of(), Map.of(), Map.of())));
  }

  @Test
  void anOriginIsSchemeHostAndPortWithTheSchemesDefaultPortAndNothingElse() {
    // RFC 9110 §4.2: http's default port is 80, https's 443; user info, path and query are left out.
    assertThat(BoundedAnswers.origin(URI.create("https://ec2.us-east-1.amazonaws.com/?Action=DescribeInstances")))
        .isEqualTo("https://ec2.us-east-1.amazonaws.com:443");
    assertThat(BoundedAnswers.origin(URI.create("http://user:S3CR3T@127.0.0.1/api/v1/pods?continue=abc")))
        .isEqualTo("http://127.0.0.1:80");
    assertThat(BoundedAnswers.origin(URI.create("https://[::1]:8443/subscriptions/s")))
        .isEqualTo("https://[::1]:8443");
  }

  @Test
  void theConfigurationGivesTheLimitAndTheTimeout() {
    BoundedAnswers bounds = fromConfig(Map.of("clusterresolver.demo.max-answer-mib", "3",
        "clusterresolver.demo.timeout", "7s"));

    assertThat(bounds.limit().maxBytes()).isEqualTo(3L * 1024 * 1024);
    assertThat(bounds.timeout()).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void anAnswerHasWhatIsLeftOfTheDeadlineOrTheTimeoutOutsideAResolve() {
    BoundedAnswers bounds = BoundedAnswers.of(AnswerLimit.ofBytes(10), Duration.ofSeconds(30));
    long[] now = {0};
    Deadline deadline = Deadline.after(Duration.ofSeconds(5), () -> now[0]);

    assertThat(bounds.within((Deadline) null)).isEqualTo(Duration.ofSeconds(30));
    now[0] = Duration.ofMillis(1_500).toNanos();
    assertThat(bounds.within(deadline)).isEqualTo(Duration.ofMillis(3_500));
    now[0] = Duration.ofSeconds(9).toNanos();
    assertThat(bounds.within(deadline)).as("an expired deadline is 1 ms, not no limit").isEqualTo(Duration.ofMillis(1));
  }

  @Test
  void aBodyLargerThanTheLimitStopsNamingTheOriginTheLimitAndItsPropertyAndIsClosed() {
    BoundedAnswers bounds = fromConfig(Map.of("clusterresolver.demo.max-answer-mib", "1"));
    AtomicBoolean closed = new AtomicBoolean();
    InputStream body = new ByteArrayInputStream(new byte[(1 << 20) + 1]) {
      @Override
      public void close() {
        closed.set(true);
      }
    };

    AnswerLimitException e = catchThrowableOfType(() -> bounds.stream(body,
        URI.create("https://api.example:8443/v1/list?token=t"), Duration.ofSeconds(5)).readAllBytes(),
        AnswerLimitException.class);

    assertThat(e.getMessage()).isEqualTo("the answer from https://api.example:8443 is larger than the limit of 1 MiB"
        + " (clusterresolver.demo.max-answer-mib)");
    assertThat(e.tooSlow()).isFalse();
    assertThat(e.advice()).isEmpty();
    assertThat(closed).as("the exchange is ended").isTrue();
  }

  @Test
  void aBodyExactlyAtTheLimitIsRead() throws IOException {
    BoundedAnswers bounds = BoundedAnswers.of(AnswerLimit.ofBytes(64), Duration.ofSeconds(5));

    assertThat(bounds.stream(new ByteArrayInputStream(new byte[64]), URI.create("http://h:1"), Duration.ofSeconds(5))
        .readAllBytes()).hasSize(64);
  }

  @Test
  void aBodyStillArrivingAfterItsTimeStops() {
    BoundedAnswers bounds = BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), Duration.ofSeconds(30));
    InputStream trickle = new InputStream() {
      @Override
      public int read() throws IOException {
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
        return 'x';
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        b[off] = (byte) read(); // one byte per read, as a trickling socket gives it
        return 1;
      }
    };

    AnswerLimitException e = catchThrowableOfType(() -> bounds.stream(trickle, URI.create("http://h:1/p"),
        Duration.ofMillis(200)).readAllBytes(), AnswerLimitException.class);

    assertThat(e.tooSlow()).isTrue();
    assertThat(e.getMessage()).startsWith("the answer from http://h:1 was still arriving after its 200 ms");
  }

  @Test
  void aMeterCountsPiecesOfABody() throws AnswerLimitException {
    AnswerLimit.Meter meter = BoundedAnswers.of(AnswerLimit.ofBytes(10), Duration.ofSeconds(5))
        .meter(URI.create("https://h/x"), Duration.ofSeconds(5));
    meter.add(6);
    meter.add(4);

    assertThatThrownBy(() -> meter.add(1)).isInstanceOf(AnswerLimitException.class)
        .hasMessage("the answer from https://h:443 is larger than the limit of 10 bytes");
  }

  @Test
  void aTooLargeAnswerOfTheApiTellsToCheckTheEndpointProperty() {
    BoundedAnswers bounds = BoundedAnswers.of(AnswerLimit.ofBytes(4), Duration.ofSeconds(5));

    ClusterResolverException e = catchThrowableOfType(() -> API.session(Duration.ofSeconds(5)).call("List",
        remaining -> read(bounds, remaining)), ClusterResolverException.class);

    assertThat(e.getMessage()).isEqualTo("demo: List: the answer from https://token.example:443 is larger than the"
        + " limit of 4 bytes; check that clusterresolver.demo.endpoint points at the API");
  }

  @Test
  void aTooLargeAnswerOfAnotherEndpointGivesItsOwnAdviceNotTheEndpointProperty() {
    BoundedAnswers bounds = BoundedAnswers.of(AnswerLimit.ofBytes(4), Duration.ofSeconds(5))
        .advising("check DEMO_TOKEN_HOST");

    ClusterResolverException e = catchThrowableOfType(() -> API.session(Duration.ofSeconds(5)).call("List",
        remaining -> read(bounds, remaining)), ClusterResolverException.class);

    assertThat(e.getMessage()).isEqualTo("demo: List: the answer from https://token.example:443 is larger than the"
        + " limit of 4 bytes; check DEMO_TOKEN_HOST").doesNotContain("clusterresolver.demo.endpoint");
  }

  /** What an SDK does with a body it could not read: wraps the stream's exception. */
  private static byte[] read(BoundedAnswers bounds, Duration within) {
    try (InputStream in = bounds.stream(new ByteArrayInputStream(new byte[5]), URI.create("https://token.example/t"),
        within)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
