package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.api.client.http.HttpHeaders;
import com.google.api.client.http.HttpResponseException;
import com.google.gson.stream.MalformedJsonException;
import io.clusterresolver.cloud.ApiFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** One reading of a failed gax REST call, for Compute Engine's error shape and the Cloud TPU API's. */
class GoogleFailureTest {

  private static RuntimeException failed(int status, String statusMessage, HttpHeaders headers, String body) {
    HttpResponseException answer = new HttpResponseException.Builder(status, statusMessage, headers).setContent(body)
        .build();
    return new IllegalStateException("call failed", answer);
  }

  @Test
  void computeEnginesReasonAndTheRequestIdHeader() {
    // cloud.google.com/compute/docs/api/handling-errors: errors[].reason, the request id as a header.
    HttpHeaders headers = new HttpHeaders().set("x-request-id", "req-7").setRetryAfter("3");
    ApiFailure f = GoogleFailure.read(failed(403, "Forbidden", headers, "{\"error\": {\"code\": 403, \"message\":"
        + " \"Rate Limit Exceeded\", \"errors\": [{\"reason\": \"rateLimitExceeded\"}], \"status\": \"PERMISSION_DENIED\"}}"));
    assertThat(f).isEqualTo(new ApiFailure(ApiFailure.Kind.HTTP_ERROR, 403, "rateLimitExceeded", "Rate Limit Exceeded",
        "req-7", 1, Duration.ofSeconds(3)));
    assertThat(f.isThrottling()).isTrue();
  }

  @Test
  void theCanonicalStatusAndTheRequestInfoDetail() {
    // cloud.google.com/apis/design/errors: status and a google.rpc.RequestInfo detail, no errors[].
    ApiFailure f = GoogleFailure.read(failed(500, "Internal Server Error", new HttpHeaders().set("x-request-id", "hdr"),
        "{\"error\": {\"code\": 500, \"message\": \"boom\", \"status\": \"INTERNAL\", \"details\": [{\"@type\":"
            + " \"type.googleapis.com/google.rpc.RequestInfo\", \"requestId\": \"body-1\"}]}}"));
    assertThat(f).isEqualTo(ApiFailure.http(500, "INTERNAL", "boom", "body-1", 1));
  }

  @Test
  void aProxysPageGivesItsFirstLineAndNoCode() {
    ApiFailure f = GoogleFailure.read(failed(502, "Bad Gateway", new HttpHeaders(), "<html>502 Bad Gateway\n<body>"));
    assertThat(f).isEqualTo(ApiFailure.http(502, null, "<html>502 Bad Gateway", null, 1));
    assertThat(GoogleFailure.read(failed(503, "Service Unavailable", new HttpHeaders(), null)).message())
        .isEqualTo("Service Unavailable");
  }

  @Test
  void parseErrorsNoAnswerAndCredentials() {
    ApiFailure malformed = GoogleFailure.read(new IllegalStateException("x",
        new RuntimeException("wrapped", new MalformedJsonException("Unterminated object at line 1"))));
    assertThat(malformed.kind()).isEqualTo(ApiFailure.Kind.MALFORMED_RESPONSE);
    assertThat(malformed.message()).isEqualTo("MalformedJsonException: Unterminated object at line 1");

    ApiFailure refused = GoogleFailure.read(new IllegalStateException("x", new ConnectException("Connection refused")));
    assertThat(refused).isEqualTo(ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, "ConnectException: Connection refused", 1));

    RuntimeException noKey = catchThrowableOfType(() -> GoogleRest.create(() -> {
      throw new IOException("no key\nsecond line");
    }), GoogleRest.CredentialsUnavailable.class);
    assertThat(GoogleFailure.read(noKey)).isEqualTo(ApiFailure.of(ApiFailure.Kind.CREDENTIALS, "IOException: no key", 1));
  }
}
