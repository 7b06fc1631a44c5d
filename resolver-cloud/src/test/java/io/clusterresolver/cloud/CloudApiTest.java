package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolverException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CloudApiTest {

  /** A fake SDK failure carrying what an SDK exception would. */
  static final class FakeSdkException extends RuntimeException {
    final ApiFailure failure;

    FakeSdkException(ApiFailure failure) {
      super("sdk says no");
      this.failure = failure;
    }
  }

  private static final CloudApi API = CloudApi.builder("demo", e -> e instanceof FakeSdkException
          ? ((FakeSdkException) e).failure : ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, e.getMessage(), 1))
      .permissions("compute.instances.list")
      .retryPolicy(RetryPolicy.none()) // these tests are about the wording; CloudApiRetryTest is about retries
      .build();

  /** Three pages a, b, c chained by tokens t1, t2. */
  private static final Map<String, List<String>> PAGES = Map.of("", List.of("a", "b"), "t1", List.of("c"), "t2", List.of("d"));
  private static final Map<String, String> NEXT = Map.of("", "t1", "t1", "t2", "t2", "");

  @Test
  void anApisErrorTextIsEscapedAndAUrlPasswordInItIsHidden() {
    // What a hostile endpoint answers (issue 20): a forged log line, a terminal escape, a URL with a password.
    assertThatThrownBy(() -> API.session(Duration.ofSeconds(5)).call("List", remaining -> {
      throw new FakeSdkException(ApiFailure.http(500, "Err\u001b[31m", "denied\rINFO all good \u001b[2J"
          + " see https://admin:S3CR3T@proxy.example/", "req\u0007", 1));
    }))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List failed with HTTP 500 Err\\u001b[31m (denied\\u000dINFO all good \\u001b[2J see"
            + " https://***@proxy.example/), request id req\\u0007, after 1 attempt");
  }

  @Test
  void followsEveryPageInOrderUntilTheTokenRunsOut() {
    List<String> seen = new ArrayList<>();
    List<String> tokens = new ArrayList<>();
    int pages = API.session(Duration.ofSeconds(5)).forEachPage("List",
        (token, remaining) -> {
          tokens.add(String.valueOf(token));
          assertThat(remaining).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(5));
          return token == null ? "" : token;
        },
        NEXT::get,
        page -> seen.addAll(PAGES.get(page)));
    assertThat(pages).isEqualTo(3);
    assertThat(tokens).containsExactly("null", "t1", "t2");
    assertThat(seen).containsExactly("a", "b", "c", "d");
  }

  @Test
  void aFailedPageFailsTheWholeListingNamingThePageStatusAndRequestId() {
    List<String> seen = new ArrayList<>();
    assertThatThrownBy(() -> API.session(Duration.ofSeconds(5)).forEachPage("List",
        (token, remaining) -> {
          if ("t1".equals(token)) {
            throw new FakeSdkException(ApiFailure.http(503, "RequestLimitExceeded", "Request limit exceeded.", "req-42", 3));
          }
          return token == null ? "" : token;
        },
        NEXT::get,
        page -> seen.addAll(PAGES.get(page))))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageStartingWith("demo: List (page 2) failed with HTTP 503 RequestLimitExceeded (Request limit exceeded.)")
        .hasMessageContaining("request id req-42")
        .hasMessageContaining("after 3 attempts")
        .hasMessageContaining("throttling")
        .hasMessageContaining("clusterresolver.demo.timeout");
  }

  @Test
  void aForbiddenThatSaysItThrottlesIsThrottlingNotAPermission() {
    ApiFailure quota = ApiFailure.http(403, "rateLimitExceeded", "Quota exceeded for quota metric 'Read requests'",
        "r-1", 4);
    assertThat(quota.isThrottling()).isTrue();
    assertThat(quota.isAuthorization()).isFalse();
    assertThat(ApiFailure.http(403, "PERMISSION_DENIED", "denied", null, 1).isAuthorization()).isTrue();
    assertThat(ApiFailure.http(403, "forbidden", "denied", null, 1).isAuthorization()).isTrue();
    assertThatThrownBy(() -> API.session(Duration.ofSeconds(5)).call("List",
        remaining -> { throw new FakeSdkException(quota); }))
        .hasMessageContaining("HTTP 403 rateLimitExceeded").hasMessageContaining("throttling")
        .hasMessageNotContaining("check the credentials");
  }

  @Test
  void authorizationFailuresNameThePermissions() {
    assertThatThrownBy(() -> API.session(Duration.ofSeconds(5)).call("Get",
        remaining -> { throw new FakeSdkException(ApiFailure.http(403, "PERMISSION_DENIED", "denied", null, 1)); }))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("HTTP 403 PERMISSION_DENIED")
        .hasMessageContaining("request id (none), after 1 attempt;")
        .hasMessageContaining("allow compute.instances.list");
  }

  @Test
  void missingCredentialsAreAConfigurationErrorNotAnApiFailure() {
    CloudApi api = CloudApi.builder("demo", e -> ApiFailure.of(ApiFailure.Kind.CREDENTIALS, "no key found", 1))
        .credentialsHint("set clusterresolver.demo.key").build();
    assertThatThrownBy(() -> api.session(Duration.ofSeconds(5)).call("List", remaining -> {
      throw new IllegalStateException("sdk");
    }))
        .isInstanceOf(io.clusterresolver.ConfigurationException.class)
        .hasMessage("demo: no credentials to sign List with (no key found): set clusterresolver.demo.key");
  }

  @Test
  void aRepeatedPageTokenIsALoopNotAnEndlessListing() {
    assertThatThrownBy(() -> API.session(Duration.ofSeconds(5)).forEachPage("List",
        (token, remaining) -> "same", page -> "same", page -> { }))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("same page token again")
        .hasMessageContaining("clusterresolver.demo.endpoint");
  }

  @Test
  void noCallStartsAfterTheDeadline() throws Exception {
    CloudApi.Session session = API.session(Duration.ofMillis(1));
    Thread.sleep(5);
    assertThatThrownBy(() -> session.call("Get", remaining -> "never"))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("demo: Get did not complete within the timeout of 1 ms");
  }
}
