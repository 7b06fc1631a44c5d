package io.clusterresolver.google;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.cloud.TokenCache;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The access token of the VM's default service account, from the metadata server's {@code
 * instance/service-accounts/default/token}, asked as google-auth-library's {@code ComputeEngineCredentials} asks it
 * ({@code Metadata-Flavor: Google}, no scopes: gax never scopes those credentials) and kept until less than the
 * library's refresh margin of its life is left. Thread-safe. The token never appears in a message.
 */
final class MetadataServerToken {

  static final String PATH = "instance/service-accounts/default/token";
  /**
   * {@code ComputeEngineCredentials}'s refresh margin: a VM's metadata server keeps its own token until 4 minutes before
   * it expires, so a token asked for earlier would be the same one.
   */
  static final Duration REFRESH_MARGIN = Duration.ofMinutes(3).plusSeconds(45);
  /** The library's transport waits this long to connect and for each read (google-http-client's default). */
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final MetadataClient server;
  private final Clock clock;
  private final TokenCache kept;

  /**
   * @param provider the provider's name, which starts the metadata client's messages
   * @param base the metadata server, like {@code http://metadata.google.internal}
   */
  MetadataServerToken(String provider, URI base, Clock clock) {
    this.server = MetadataClient.builder(provider, URI.create(base.toString().replaceAll("/+$", "")
        + "/computeMetadata/v1")).header("Metadata-Flavor", "Google").answersWith("Metadata-Flavor", "Google")
        .timeouts(TIMEOUT, TIMEOUT).build();
    this.clock = clock;
    this.kept = TokenCache.withMargin(REFRESH_MARGIN, clock);
  }

  /**
   * The token, asked for when there is none yet or it is about to expire.
   *
   * @throws UncheckedIOException when the metadata server gives none (as a call's credentials that cannot be had)
   */
  String current() {
    try {
      return kept.get(this::fetch);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Asks for a new token (after a 401: the token may have been revoked early). */
  boolean renew() throws IOException {
    kept.renew(this::fetch);
    return true;
  }

  private TokenCache.Token fetch() throws IOException {
    StringBuilder whyNot = new StringBuilder();
    Optional<String> answer;
    try {
      answer = server.get(PATH, whyNot::append);
    } catch (MetadataClient.BadAnswer e) {
      throw new IOException("no token of the default service account from the Compute Engine metadata server: "
          + e.reason());
    }
    if (answer.isEmpty()) {
      throw new IOException("no token of the default service account from the Compute Engine metadata server ("
          + whyNot + "): does the VM have a service account?");
    }
    Instant asked = clock.instant();
    String accessToken = null;
    Long expiresIn = null;
    try (JsonReader in = new JsonReader(new StringReader(answer.get()))) {
      in.beginObject();
      while (in.hasNext()) {
        switch (in.nextName()) {
          case "access_token" -> accessToken = in.nextString();
          case "expires_in" -> expiresIn = in.nextLong();
          default -> in.skipValue();
        }
      }
      in.endObject();
    } catch (IOException | IllegalStateException | NumberFormatException e) {
      throw new IOException("the metadata server's token answer is not the JSON expected ("
          + e.getClass().getSimpleName() + ")");
    }
    if (accessToken == null || expiresIn == null) {
      throw new IOException("the metadata server's token answer has no " + (accessToken == null ? "access_token"
          : "expires_in"));
    }
    return new TokenCache.Token(accessToken, asked.plusSeconds(expiresIn));
  }

  /** When the token expires, or {@code null} before the first. */
  Instant expires() {
    return kept.expiresAt().orElse(null);
  }
}
