package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.client.http.HttpHeaders;
import com.google.api.client.http.HttpResponseException;
import org.junit.jupiter.api.Test;

/** Google's JSON error shape (cloud.google.com/apis/design/errors), and what is left of an answer that is not in it. */
class GoogleErrorTest {

  @Test
  void readsMessageStatusAndRequestId() {
    GoogleError e = GoogleError.of("{\"error\": {\"code\": 403, \"message\": \"Permission 'tpu.nodes.get' denied\","
        + " \"status\": \"PERMISSION_DENIED\", \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\","
        + " \"reason\": \"IAM_PERMISSION_DENIED\"}, {\"@type\": \"type.googleapis.com/google.rpc.RequestInfo\","
        + " \"requestId\": \"abc123\"}]}}");
    assertThat(e).isEqualTo(new GoogleError("Permission 'tpu.nodes.get' denied", "PERMISSION_DENIED", null, "abc123"));
  }

  @Test
  void readsComputeEnginesFirstReason() {
    // cloud.google.com/compute/docs/api/handling-errors: errors[].reason, like rateLimitExceeded.
    String body = "{\"error\": {\"code\": 403, \"message\": \"Rate Limit Exceeded\", \"errors\": [{\"message\":"
        + " \"Rate Limit Exceeded\", \"domain\": \"usageLimits\", \"reason\": \"rateLimitExceeded\"},"
        + " {\"reason\": \"second\"}]}}";
    assertThat(GoogleError.parse(body)).contains(new GoogleError("Rate Limit Exceeded", null, "rateLimitExceeded", null));
    assertThat(GoogleError.parse("{\"kind\": \"compute#instance\"}")).isEmpty();
    assertThat(GoogleError.parse("<html>")).isEmpty();
    assertThat(GoogleError.parse("{\"error\": {\"errors\": {\"reason\": \"not an array\"}, \"status\": {}}}"))
        .contains(new GoogleError(null, null, null, null));
  }

  @Test
  void aProxysPageKeepsItsFirstLineOnly() {
    GoogleError e = GoogleError.of("<html><head><title>502 Bad Gateway</title></head>\n<body>nginx</body></html>");
    assertThat(e.message()).isEqualTo("<html><head><title>502 Bad Gateway</title></head>");
    assertThat(e.status()).isNull();
    assertThat(e.requestId()).isNull();
    assertThat(GoogleError.of(null)).isEqualTo(new GoogleError(null, null, null, null));
    assertThat(GoogleError.of("{\"error\": {\"code\": 500}}")).isEqualTo(new GoogleError(null, null, null, null));
    assertThat(GoogleError.of("x".repeat(300)).message()).hasSize(200);
  }

  @Test
  void theHttpAnswerIsFoundAnywhereInTheCauseChain() {
    HttpResponseException answer = new HttpResponseException.Builder(429, "Too Many Requests", new HttpHeaders()).build();
    RuntimeException wrapped = new IllegalStateException("call failed", new RuntimeException(answer));
    assertThat(GoogleError.answer(wrapped)).containsSame(answer);
    assertThat(GoogleError.answer(new IllegalStateException("no answer"))).isEmpty();
  }
}
