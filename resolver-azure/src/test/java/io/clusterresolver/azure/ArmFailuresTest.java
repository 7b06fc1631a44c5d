package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.implementation.ImplUtils;
import com.azure.core.util.Context;
import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.BoundedAnswers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wait a throttled ARM answer asks for, as {@link ArmFailures} reads it (the kit's {@code RetryAfter}), against
 * azure-core's own reading of the same answer's headers ({@code ImplUtils.getRetryAfterFromHeaders}, what its retry
 * policy waits). The answers come from the JDK's HTTP server, to the provider's {@link ArmHttp} and, for azure-core,
 * through azure-core's HTTP client (the one azure-identity's token requests still use).
 *
 * <p>Where the two differ on purpose they are not compared: with both millisecond headers azure-core takes {@code
 * x-ms-retry-after-ms} first and we take {@code retry-after-ms} (ARM sends one); a date already past is no wait for
 * azure-core and a wait of zero for us (both retry now); values of more than 9 digits are capped by us.
 */
class ArmFailuresTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final String THROTTLED = "{\"error\":{\"code\":\"TooManyRequests\",\"message\":\"slow down\"}}";

  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void theWaitOfAThrottledAnswerIsTheOneAzureCoreReads() throws Exception {
    String inTwoMinutes = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusMinutes(2));
    List<Map<String, String>> answers = List.of(
        Map.of("retry-after-ms", "1500"),
        Map.of("x-ms-retry-after-ms", "250"),
        Map.of("Retry-After", "7"),
        Map.of("Retry-After", inTwoMinutes),
        Map.of("x-ms-retry-after-ms", "20", "Retry-After", "9"),
        Map.of("retry-after-ms", "soon", "Retry-After", "3"),
        Map.of("Retry-After", "later"),
        Map.of());
    for (Map<String, String> headers : answers) {
      URL url = serve(headers);
      try (HttpResponse answer = BoundedHttpClient.overJdk(null, BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), TIMEOUT),
          () -> null).sendSync(new HttpRequest(HttpMethod.GET, url), Context.NONE)) {
        assertThat(answer.getStatusCode()).isEqualTo(429);
        Duration azureCore = ImplUtils.getRetryAfterFromHeaders(answer.getHeaders(), OffsetDateTime::now);

        ArmAnswerException ours = catchThrowableOfType(() -> new ArmHttp(null,
            BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), TIMEOUT), BearerTokens.fixed("t"), null)
            .get(url.toString(), null, read -> "not an error"), ArmAnswerException.class);
        ApiFailure read = ArmFailures.read(ours);

        assertThat(read.isThrottling()).as("%s", headers).isTrue();
        if (azureCore == null) {
          assertThat(read.retryAfter()).as("%s", headers).isNull();
        } else if (headers.containsValue(inTwoMinutes)) {
          // azure-core counts whole seconds; the answer came a moment before either read it
          assertThat(read.retryAfter()).as("%s", headers).isBetween(azureCore.minusSeconds(2), azureCore.plusSeconds(2));
        } else {
          assertThat(read.retryAfter()).as("%s", headers).isEqualTo(azureCore);
        }
      }
      server.stop(0);
      server = null;
    }
  }

  private URL serve(Map<String, String> headers) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] body = THROTTLED.getBytes(StandardCharsets.UTF_8);
    server.createContext("/", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
      exchange.sendResponseHeaders(429, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return new URL("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/vms");
  }
}
