package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.testkit.HostileEndpoint;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The token requests of azure-identity, which it sends without the call's context (issue 20's
 * leftovers): each is read within what is left of the resolve's deadline, and a too large answer
 * names the identity settings, not {@code clusterresolver.azure.endpoint}.
 */
class TokenRequestBoundsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final BoundedAnswers BOUNDS = BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), TIMEOUT);

  @Test
  void aTokenRequestHasWhatIsLeftOfTheResolvesDeadlineNotTheWholeTimeout() throws Exception {
    DeadlinePolicy deadlines = new DeadlinePolicy();
    HttpPipeline arm = new HttpPipelineBuilder().httpClient(BoundedHttpClient.overJdk(null, TIMEOUT,
        BOUNDS.limit())).policies(deadlines).build();
    // 200 bytes, one every 100 ms: 20 s of body, within the 30 s timeout but not within the resolve's 1.5 s.
    try (HostileEndpoint resourceManager = HostileEndpoint.answer(200, Map.of(), "{\"value\":[]}");
        HostileEndpoint token = HostileEndpoint.trickle("{\"access_token\":\"" + "a".repeat(180) + "\"}",
            Duration.ofMillis(100))) {
      try (HttpResponse answer = arm.sendSync(get(resourceManager.uri()),
          DeadlinePolicy.context(Deadline.after(Duration.ofMillis(1_500))))) {
        assertThat(answer.getStatusCode()).isEqualTo(200); // the resolve's first call, as the bearer policy sees it
      }
      HttpClient tokens = IdentityCredentials.tokenHttp(null, BOUNDS, deadlines::latest);

      long start = System.nanoTime();
      Throwable e = catchThrowable(() -> tokens.sendSync(get(token.uri()), Context.NONE).getBodyAsString().block());
      long millis = (System.nanoTime() - start) / 1_000_000;

      AnswerLimitException limit = AnswerLimitException.find(e);
      assertThat(limit).as("the token answer ran out of the resolve's time: %s", e).isNotNull();
      assertThat(limit.tooSlow()).isTrue();
      assertThat(millis).as("bounded by the 1.5 s left, not the 30 s timeout").isLessThan(8_000);
      assertThat(token.bytesSent()).isLessThan(150);
    }
  }

  @Test
  void aTokenRequestOutsideAResolveHasTheTimeout() throws Exception {
    DeadlinePolicy deadlines = new DeadlinePolicy();
    try (HostileEndpoint token = HostileEndpoint.answer(200, Map.of(), "{\"access_token\":\"t\"}")) {
      String body = IdentityCredentials.tokenHttp(null, BOUNDS, deadlines::latest)
          .sendSync(get(token.uri()), Context.NONE).getBodyAsString().block();

      assertThat(deadlines.latest()).isNull();
      assertThat(body).isEqualTo("{\"access_token\":\"t\"}");
    }
  }

  @Test
  void aTooLargeTokenAnswerAdvisesTheIdentitySettingsNotTheResourceManagerEndpoint() throws Exception {
    BoundedAnswers small = BoundedAnswers.of(AnswerLimit.ofBytes(1024), TIMEOUT);
    try (HostileEndpoint token = HostileEndpoint.endless("{\"access_token\":\"", "a", 1 << 20)) {
      Throwable e = catchThrowable(() -> IdentityCredentials.tokenHttp(null, small, () -> null)
          .sendSync(get(token.uri()), Context.NONE).getBodyAsString().block());

      AnswerLimitException limit = AnswerLimitException.find(e);
      assertThat(limit).as("%s", e).isNotNull();
      assertThat(limit.getMessage()).contains(token.uri().getHost() + ":" + token.uri().getPort())
          .contains("larger than the limit of 1024 bytes");
      assertThat(limit.advice()).hasValueSatisfying(advice -> assertThat(advice)
          .contains("AZURE_AUTHORITY_HOST", "IDENTITY_ENDPOINT").doesNotContain("clusterresolver.azure.endpoint"));
    }
  }

  private static HttpRequest get(URI uri) throws Exception {
    return new HttpRequest(HttpMethod.GET, uri.toURL());
  }
}
