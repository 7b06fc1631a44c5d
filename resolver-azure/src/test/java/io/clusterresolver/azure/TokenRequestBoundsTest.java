package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.testkit.HostileEndpoint;
import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

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
    AtomicReference<Deadline> resolveInProgress = new AtomicReference<>();
    // 200 bytes, one every 100 ms: 20 s of body, within the 30 s timeout but not within the resolve's 1.5 s.
    try (HostileEndpoint token = HostileEndpoint.trickle("{\"access_token\":\"" + "a".repeat(180) + "\"}",
        Duration.ofMillis(100))) {
      HttpClient tokens = IdentityCredentials.tokenHttp(null, BOUNDS, resolveInProgress::get);
      // A credential that asks its token endpoint through the token client, as azure-identity's do.
      TokenCredential asking = new TokenCredential() {
        @Override
        public Mono<AccessToken> getToken(TokenRequestContext request) {
          return Mono.fromCallable(() -> getTokenSync(request));
        }

        @Override
        public AccessToken getTokenSync(TokenRequestContext request) {
          try {
            String body = tokens.sendSync(get(token.uri()), Context.NONE).getBodyAsString().block();
            return new AccessToken(body, OffsetDateTime.now().plusHours(1));
          } catch (Exception e) {
            throw e instanceof RuntimeException ? (RuntimeException) e : new IllegalStateException(e);
          }
        }
      };
      BearerTokens bearer = BearerTokens.of(asking, ArmClients.SCOPE, resolveInProgress);

      long start = System.nanoTime();
      Throwable e = catchThrowable(() -> bearer.token(Deadline.after(Duration.ofMillis(1_500))));
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
    AtomicReference<Deadline> resolveInProgress = new AtomicReference<>();
    try (HostileEndpoint token = HostileEndpoint.answer(200, Map.of(), "{\"access_token\":\"t\"}")) {
      String body = IdentityCredentials.tokenHttp(null, BOUNDS, resolveInProgress::get)
          .sendSync(get(token.uri()), Context.NONE).getBodyAsString().block();

      assertThat(resolveInProgress.get()).isNull();
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
