package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;

/** {@link CloudHttp#exchange}: what reaches the provider's readers, and what the call throws. */
class CloudHttpExchangeTest {

  private static final Duration TIME = Duration.ofSeconds(10);
  private static final AnswerLimit LIMIT = AnswerLimit.ofBytes(64 * 1024);
  private static final CloudHttp HTTP = new CloudHttp(LIMIT, CloudHttp.Redirects.REPORTED, null);

  private static RecordingHttpServer answering(int status, Map<String, String> headers, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(exchange, status, headers, bytes));
  }

  private static CloudHttp.Request get(RecordingHttpServer server) {
    return CloudHttp.Request.get(server.uri().resolve("/list?page=2"));
  }

  private static CloudHttp.ErrorReader noError() {
    return error -> {
      throw new AssertionError("not an error answer: " + error.status());
    };
  }

  /** The text of the last {@code id} element, read by the JDK's StAX parser (as aws reads EC2's answers). */
  private static String lastText(CloudHttp.Answer answer) throws XMLStreamException {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    XMLStreamReader xml = factory.createXMLStreamReader(answer.body());
    String text = null;
    while (xml.hasNext()) {
      if (xml.next() == XMLStreamReader.START_ELEMENT && xml.getLocalName().equals("id")) {
        text = xml.getElementText();
      }
    }
    return text;
  }

  @Test
  void aSuccessfulAnswerIsWhatItsReaderReads() throws Exception {
    try (RecordingHttpServer server = answering(200, Map.of(), "<r><id>i-0abc</id></r>")) {
      assertThat(HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, CloudHttpExchangeTest::lastText,
          noError())).isEqualTo("i-0abc");
    }
  }

  @Test
  void anErrorAnswerIsReadWholeWithItsHeadersAndRetryAfterIntoTheErrorReadersException() throws Exception {
    String body = "{\"error\":{\"code\":\"TooManyRequests\"}}";
    AtomicReference<CloudHttp.ErrorAnswer> seen = new AtomicReference<>();
    try (RecordingHttpServer server = answering(503, Map.of("Retry-After", "7", "x-amz-request-id", "req-2"), body)) {
      CloudHttp.Request request = get(server);
      assertThatThrownBy(() -> HTTP.exchange(request, CloudHttp.Authorization.NONE, TIME, answer -> {
        throw new AssertionError("an error answer is not read as a success");
      }, error -> {
        seen.set(error);
        return new ApiErrorException("list: HTTP " + error.status(), ApiFailure.http(error.status(), "Unavailable",
            error.text(), error.firstHeader("x-amzn-RequestId", "x-amz-request-id"), 1)
            .withRetryAfter(error.retryAfter()));
      })).isInstanceOfSatisfying(ApiErrorException.class, e -> {
        assertThat(e.getMessage()).isEqualTo("list: HTTP 503");
        assertThat(e.failure().message()).isEqualTo(body);
        assertThat(e.failure().requestId()).isEqualTo("req-2");
        assertThat(e.failure().retryAfter()).isEqualTo(Duration.ofSeconds(7));
        assertThat(e.failure().isRetryable()).isTrue();
      });
      CloudHttp.ErrorAnswer error = seen.get();
      assertThat(error.request().toString()).isEqualTo("GET " + server.uri().resolve("/list"));
      assertThat(error.status()).isEqualTo(503);
      assertThat(error.reason()).isEqualTo("Service Unavailable");
      assertThat(error.header("RETRY-AFTER")).isEqualTo("7");
      assertThat(error.firstHeader("x-ms-request-id")).isNull();
      assertThat(error.body()).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void anErrorAnswerWithoutRetryAfterAsksForNoWait() throws Exception {
    try (RecordingHttpServer server = answering(503, Map.of(), "")) {
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> "read",
          error -> new ApiErrorException("HTTP " + error.status() + " [" + error.text() + "] " + error.retryAfter(),
              ApiFailure.http(error.status(), null, null, null, 1))))
          .isInstanceOf(ApiErrorException.class).hasMessage("HTTP 503 [] null");
    }
  }

  @Test
  void anErrorBodyOverTheLimitIsTheLimitsError() throws Exception {
    try (RecordingHttpServer server = answering(500, Map.of(), "x".repeat(65 * 1024))) {
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> "read",
          error -> {
            throw new AssertionError("read past the limit");
          }))
          .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(AnswerLimitException.class);
    }
  }

  @Test
  void aReadersCheckedFailureIsAMalformedAnswerNamingTheRequestAndKeepingTheCause() throws Exception {
    try (RecordingHttpServer server = answering(200, Map.of(), "<html>welcome")) {
      CloudHttp.Request request = get(server);
      assertThatThrownBy(() -> HTTP.exchange(request, CloudHttp.Authorization.NONE, TIME,
          CloudHttpExchangeTest::lastText, noError()))
          .isInstanceOfSatisfying(MalformedAnswerException.class, e -> {
            assertThat(e.getMessage()).startsWith("GET " + server.uri().resolve("/list")
                + ": the answer is not what was expected (javax.xml.stream.XMLStreamException: ");
            assertThat(e.getCause()).isInstanceOf(XMLStreamException.class);
            assertThat(e.failure().kind()).isEqualTo(ApiFailure.Kind.MALFORMED_RESPONSE);
            assertThat(e.failure().message()).isEqualTo(e.getMessage());
            assertThat(e.failure().isRetryable()).isFalse();
          });
    }
  }

  @Test
  void anAnswerOverTheLimitIsTheLimitsErrorEvenWhenTheXmlParserKeptItAsItsNestedException() throws Exception {
    String big = "<r><id>" + "x".repeat(65 * 1024) + "</id></r>";
    try (RecordingHttpServer server = answering(200, Map.of(), big)) {
      // The JDK's parser reports the stream's failure as an XMLStreamException whose cause is not set.
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME,
          CloudHttpExchangeTest::lastText, noError()))
          .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(AnswerLimitException.class);
      // Also when the reader words it itself.
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> {
        try {
          return lastText(answer);
        } catch (XMLStreamException e) {
          throw new MalformedAnswerException("DescribeInstances: the answer is not the XML expected", e);
        }
      }, noError())).isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(AnswerLimitException.class);
    }
  }

  @Test
  void aReadersUncheckedFailureAndLostBodyPassAsTheyAre() throws Exception {
    try (RecordingHttpServer server = answering(200, Map.of(), "{}")) {
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> {
        throw new NotTheApiException("no \"kind\"");
      }, noError())).isInstanceOf(NotTheApiException.class).hasMessage("no \"kind\"");
      MalformedAnswerException worded = new MalformedAnswerException("HTTP response has a malformed body", null);
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> {
        throw worded;
      }, noError())).isSameAs(worded);
      IOException lost = new IOException("Connection reset");
      assertThatThrownBy(() -> HTTP.exchange(get(server), CloudHttp.Authorization.NONE, TIME, answer -> {
        throw lost;
      }, noError())).isInstanceOf(UncheckedIOException.class).hasCause(lost);
    }
  }

  @Test
  void noAnswerIsAnUncheckedIoException() {
    assertThatThrownBy(() -> HTTP.exchange(CloudHttp.Request.get(URI.create("http://127.0.0.1:1/")),
        CloudHttp.Authorization.NONE, TIME, answer -> "read", noError()))
        .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(IOException.class);
  }
}
