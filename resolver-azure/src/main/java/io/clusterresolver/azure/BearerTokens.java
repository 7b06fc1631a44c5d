package io.clusterresolver.azure;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.cloud.TokenCache;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bearer token of the Resource Manager calls: a fixed {@code access-token} (the user's to renew), or
 * azure-identity's credential's, kept until shortly before it expires and asked again after a 401.
 */
interface BearerTokens {

  /** The token for a call under {@code deadline} (the resolve's, or {@code null} outside one). */
  String token(Deadline deadline);

  /** Whether a 401 is worth a new token ({@link #renewed}): not for a fixed one. */
  boolean renewable();

  /** A new token, after the last one was refused. */
  String renewed(Deadline deadline);

  /** A fixed token: nothing to ask, nothing to renew. */
  static BearerTokens fixed(String token) {
    return new BearerTokens() {
      @Override
      public String token(Deadline deadline) {
        return token;
      }

      @Override
      public boolean renewable() {
        return false;
      }

      @Override
      public String renewed(Deadline deadline) {
        return token;
      }

      @Override
      public String toString() {
        return "BearerTokens.fixed"; // never the token
      }
    };
  }

  /**
   * The tokens of {@code credential} for {@code scope}, asked synchronously ({@code getTokenSync}) as azure-core's
   * bearer policy asks them, and kept until five minutes before they expire (its cache's margin). {@code
   * resolveInProgress} is told the deadline of each ask: azure-identity sends its token requests without it, and
   * their HTTP client reads it there ({@link IdentityCredentials#tokenHttp}).
   */
  static BearerTokens of(TokenCredential credential, String scope, AtomicReference<Deadline> resolveInProgress) {
    return new FromCredential(credential, scope, resolveInProgress);
  }

  /** A credential's tokens, one kept at a time; asks of concurrent calls (the NIC listing's thread) wait for one. */
  final class FromCredential implements BearerTokens {
    /** azure-core's {@code AccessTokenCache}'s margin. */
    private static final Duration MARGIN = Duration.ofMinutes(5);

    private final TokenCredential credential;
    private final String scope;
    private final AtomicReference<Deadline> resolveInProgress;
    private final TokenCache kept = TokenCache.withMargin(MARGIN);

    private FromCredential(TokenCredential credential, String scope, AtomicReference<Deadline> resolveInProgress) {
      this.credential = credential;
      this.scope = scope;
      this.resolveInProgress = resolveInProgress;
    }

    @Override
    public String token(Deadline deadline) {
      return kept.get(() -> ask(deadline));
    }

    @Override
    public boolean renewable() {
      return true;
    }

    @Override
    public String renewed(Deadline deadline) {
      return kept.renew(() -> ask(deadline));
    }

    /** A new token; one without an expiry is used once (asked again for the next call). */
    private TokenCache.Token ask(Deadline deadline) {
      if (deadline != null) {
        resolveInProgress.set(deadline);
      }
      AccessToken token = credential.getTokenSync(new TokenRequestContext().addScopes(scope));
      if (token == null || token.getToken() == null) {
        throw new com.azure.core.exception.ClientAuthenticationException("the credential " + credential.getClass()
            .getSimpleName() + " gave no token for " + scope, null);
      }
      return new TokenCache.Token(token.getToken(),
          token.getExpiresAt() == null ? Instant.MIN : token.getExpiresAt().toInstant());
    }

    @Override
    public String toString() {
      return "BearerTokens.of(" + credential.getClass().getSimpleName() + ")";
    }
  }
}
