package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolverException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A provider against an API endpoint that is not its cloud's (issue 20, attacks 4 and 7), the same
 * three shapes for every provider: an answer trickled a byte at a time ends at the provider's
 * timeout, an answer that does not end stops at its size limit, and a 200 answer that is not the
 * API's is an error, not an empty cluster. A provider's test extends it, keeps the rest of the world
 * (metadata, credentials) in its simulation and points only the API endpoint at the
 * {@link HostileEndpoint}; a shape it has no case for it turns off by returning {@code null}.
 */
public abstract class HostileEndpointContract {

  private final String prefix;
  private final String firstCall;

  /**
   * @param prefix the provider's property prefix, such as {@code clusterresolver.aws}
   * @param firstCall the API call the provider makes first, as its errors name it (such as {@code DescribeInstances})
   */
  protected HostileEndpointContract(String prefix, String firstCall) {
    this.prefix = prefix;
    this.firstCall = firstCall;
  }

  /** The provider's property prefix, such as {@code clusterresolver.aws}. */
  protected final String prefix() {
    return prefix;
  }

  /** The API call the provider makes first, as its errors name it. */
  protected final String firstCall() {
    return firstCall;
  }

  /**
   * Resolves once with the API endpoint at {@code endpoint} and these properties (keys after the
   * prefix, such as {@code timeout}); the failure, or {@code null} when it resolved.
   */
  protected abstract ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties);

  /** The endpoint of {@code api} the provider is pointed at (HTTPS for an API that sends tokens only there). */
  protected URI endpoint(HostileEndpoint api) {
    return api.uri();
  }

  /** How an error names the endpoint ({@code host:port} by default). */
  protected String endpointAsNamed(URI endpoint) {
    return endpoint.getHost() + ":" + endpoint.getPort();
  }

  /** The start of an answer in the API's format, at least 40 bytes, that is trickled; {@code null}: no such case. */
  protected abstract String trickledAnswer();

  /** The provider's timeout in the trickle case. */
  protected Duration trickleTimeout() {
    return Duration.ofSeconds(2);
  }

  /**
   * How long the trickle case may take: half the time the whole answer takes to trickle (its bytes at one every
   * 500 ms), and at least the timeout and 4 s more. Far below the whole answer, so a client
   * whose timeout bounds each read but not the body fails; far above the timeout, so that a cold client on a machine
   * at load 30 (whose set-up comes before the resolve's deadline) passes.
   */
  protected Duration trickleBound() {
    Duration half = Duration.ofMillis(trickledAnswer().length() * TRICKLE_EVERY_MS / 2);
    Duration least = trickleTimeout().plusSeconds(4);
    return half.compareTo(least) > 0 ? half : least;
  }

  /** How often the trickle case sends one byte: well within any read timeout. */
  private static final long TRICKLE_EVERY_MS = 500;

  /** What the error of a trickled answer names. */
  protected List<String> trickleErrorNames() {
    return List.of(firstCall(), prefix() + ".timeout");
  }

  /** The start of an answer that does not end and the item it repeats; {@code null}: no such case. */
  protected abstract String[] endlessAnswer();

  /** The properties of the endless case: a limit of 1 MiB and a timeout it does not reach. */
  protected Map<String, String> endlessProperties() {
    return Map.of("max-answer-mib", "1", "timeout", "20s");
  }

  /** A 200 answer that is not the API's (a proxy's JSON welcome by default). */
  protected HostileEndpoint notTheApi() {
    return HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), "{\"message\": \"Welcome to the proxy\"}");
  }

  /** What the error of an answer that is not the API's names, such as {@code not an EC2 answer}. */
  protected abstract List<String> notTheApiErrorNames();

  /** What the error of an answer that is not the API's must not say. */
  protected List<String> notTheApiErrorNeverSays() {
    return List.of();
  }

  /** Why the provider does not yet tell an answer that is not the API's from an empty one, or {@code null}. */
  protected String notTheApiNotDetectedBecause() {
    return null;
  }

  @Test
  void anAnswerTrickledOneByteEveryHalfSecondEndsAtTheTimeout() {
    String body = trickledAnswer();
    Assumptions.assumeTrue(body != null, "no trickle case for this provider");
    try (HostileEndpoint api = HostileEndpoint.trickle(body, Duration.ofMillis(TRICKLE_EVERY_MS))) {
      long start = System.nanoTime();
      ClusterResolverException e = resolveAgainst(endpoint(api), Map.of("timeout", trickleTimeout().toSeconds() + "s"));
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).as("a trickled answer is an error, not a cluster").isNotNull();
      assertThat(millis).as("the timeout of " + trickleTimeout().toSeconds() + " s covers the body too (the whole"
              + " body takes " + body.length() * TRICKLE_EVERY_MS / 1000 + " s)")
          .isLessThan(trickleBound().toMillis());
      assertThat(e.getMessage()).contains(trickleErrorNames());
      assertThat(api.bytesSent()).isLessThan(body.length());
    }
  }

  @Test
  void anAnswerThatDoesNotEndStopsAtTheSizeLimitNamingTheEndpointAndTheLimit() {
    String[] answer = endlessAnswer();
    Assumptions.assumeTrue(answer != null, "no endless-answer case for this provider");
    try (HostileEndpoint api = HostileEndpoint.endless(answer[0], answer[1], 64L << 20)) {
      ClusterResolverException e = resolveAgainst(endpoint(api), endlessProperties());

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains(endpointAsNamed(endpoint(api)))
          .contains("larger than the limit of 1 MiB").contains(prefix() + ".max-answer-mib");
      // What the socket buffers held besides the 1 MiB read: far from the 64 MiB the endpoint would send.
      assertThat(api.bytesSent()).as("the client stopped reading near the limit").isLessThan(16L << 20);
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotTheApisIsAnErrorNotAnEmptyCluster() {
    String notDetected = notTheApiNotDetectedBecause();
    Assumptions.assumeTrue(notDetected == null, notDetected);
    try (HostileEndpoint api = notTheApi()) {
      ClusterResolverException e = resolveAgainst(endpoint(api), Map.of());

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains(notTheApiErrorNames());
      notTheApiErrorNeverSays().forEach(words -> assertThat(e.getMessage()).doesNotContain(words));
      assertThat(e.isRetryable()).as("waiting does not fix an endpoint (resolve --wait must stop)").isFalse();
    }
  }
}
