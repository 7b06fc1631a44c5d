package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedAzure;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Resource Manager's answers a listing cannot use, each from a real HTTPS endpoint through a whole resolve: an error
 * status is an {@link ArmAnswerException} whose facts the kit takes as they are (the status, ARM's error code and the
 * first line of its message, {@code x-ms-request-id}, {@code Retry-After}); a 2xx other than 200 stays an answer
 * that is not the API's format.
 */
class ArmAnswerExceptionTest {

  private static final String REQUEST_ID = "5e0a7c1d-4f6b-4e2a-9d3c-0b1a2c3d4e5f";

  private SimulatedAzure azure;

  @BeforeEach
  void start() {
    azure = AzureTestSupport.start();
  }

  @AfterEach
  void stop() {
    azure.close();
  }

  @Test
  void anErrorAnswerIsReportedWithArmsCodeMessageAndRequestIdAndNotRetried() {
    try (HostileEndpoint arm = HostileEndpoint.answer(409, Map.of("Content-Type", "application/json",
        "x-ms-request-id", REQUEST_ID), "{\"error\":{\"code\":\"OperationNotAllowed\","
        + "\"message\":\"The subscription is disabled.\\nSee https://aka.ms/subscription\"}}")) {
      ClusterResolverException e = resolveAgainst(arm);

      assertThat(e.getMessage()).contains("VirtualMachines.List (page 1) failed with HTTP 409 OperationNotAllowed"
          + " (The subscription is disabled.), request id " + REQUEST_ID + ", after 1 attempt")
          .doesNotContain("aka.ms");
      assertThat(arm.requests()).hasSize(1); // a 409 is not retried
    }
  }

  @Test
  void aThrottledAnswersRetryAfterReachesTheRetries() {
    try (HostileEndpoint arm = HostileEndpoint.answer(429, Map.of("Content-Type", "application/json",
        "Retry-After", "60"), "{\"error\":{\"code\":\"TooManyRequests\",\"message\":\"slow down\"}}")) {
      ClusterResolverException e = resolveAgainst(arm);

      // The wait asked for is past the deadline: given up at once, naming it, instead of retried after a backoff.
      assertThat(e.getMessage()).contains("HTTP 429 TooManyRequests (slow down)").contains("(Retry-After)");
      assertThat(arm.requests()).hasSize(1);
    }
  }

  @Test
  void aSuccessStatusOtherThan200IsAnAnswerNotInTheApisFormatNotAnError() {
    try (HostileEndpoint arm = HostileEndpoint.answer(201, Map.of("Content-Type", "application/json"),
        "{\"value\":[]}")) {
      ClusterResolverException e = resolveAgainst(arm);

      assertThat(e.getMessage())
          .contains("VirtualMachines.List (page 1) returned an answer that is not the API's format")
          .contains("Status code 201").doesNotContain("failed with HTTP");
    }
  }

  private ClusterResolverException resolveAgainst(HostileEndpoint arm) {
    Map<String, String> p = AzureTestSupport.properties(azure);
    p.put("clusterresolver.azure.endpoint", arm.httpsUri().toString());
    return catchThrowableOfType(() -> ClusterResolvers.create("azure", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }
}
