package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.core.exception.ClientAuthenticationException;
import io.clusterresolver.cloud.Deadline;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * {@link BearerTokens#of}: a credential's token kept until five minutes before it expires (azure-core's {@code
 * AccessTokenCache}'s {@code REFRESH_OFFSET}), asked again after a 401, each ask told the deadline of the resolve that
 * made it.
 */
class BearerTokensTest {

  private final AtomicInteger asked = new AtomicInteger();
  private final List<String> scopes = new CopyOnWriteArrayList<>();

  /** A credential whose n-th token ({@code token-n}) expires when {@code expiry} says, from now. */
  private TokenCredential credential(Supplier<OffsetDateTime> expiry) {
    return new TokenCredential() {
      @Override
      public Mono<AccessToken> getToken(TokenRequestContext request) {
        return Mono.fromCallable(() -> getTokenSync(request));
      }

      @Override
      public AccessToken getTokenSync(TokenRequestContext request) {
        scopes.addAll(request.getScopes());
        return new AccessToken("token-" + asked.incrementAndGet(), expiry.get());
      }
    };
  }

  @Test
  void aTokenIsKeptWhileMoreThanFiveMinutesOfItAreLeft() {
    BearerTokens hour = BearerTokens.of(credential(() -> OffsetDateTime.now().plusHours(1)), ArmClients.SCOPE,
        new AtomicReference<>());
    assertThat(hour.token(null)).isEqualTo("token-1");
    assertThat(hour.token(null)).isEqualTo("token-1");
    assertThat(asked).hasValue(1);
    assertThat(scopes).containsOnly(ArmClients.SCOPE);

    asked.set(0);
    BearerTokens nearlyOver = BearerTokens.of(credential(() -> OffsetDateTime.now().plusSeconds(299)),
        ArmClients.SCOPE, new AtomicReference<>());
    assertThat(nearlyOver.token(null)).isEqualTo("token-1");
    assertThat(nearlyOver.token(null)).isEqualTo("token-2");

    asked.set(0);
    BearerTokens unknownExpiry = BearerTokens.of(credential(() -> null), ArmClients.SCOPE, new AtomicReference<>());
    assertThat(unknownExpiry.token(null)).isEqualTo("token-1");
    assertThat(unknownExpiry.token(null)).isEqualTo("token-2");
  }

  @Test
  void renewedAsksAgainAndEachAskIsToldItsResolvesDeadline() {
    AtomicReference<Deadline> resolveInProgress = new AtomicReference<>();
    BearerTokens tokens = BearerTokens.of(credential(() -> OffsetDateTime.now().plusHours(1)), ArmClients.SCOPE,
        resolveInProgress);
    Deadline first = Deadline.after(Duration.ofSeconds(30));
    assertThat(tokens.token(first)).isEqualTo("token-1");
    assertThat(resolveInProgress).hasValue(first);
    assertThat(tokens.renewable()).isTrue();
    Deadline second = Deadline.after(Duration.ofSeconds(30));
    assertThat(tokens.renewed(second)).isEqualTo("token-2");
    assertThat(resolveInProgress).hasValue(second);
    assertThat(tokens.token(null)).isEqualTo("token-2");
    assertThat(tokens.toString()).doesNotContain("token-");
  }

  @Test
  void aCredentialThatGivesNoTokenIsAnAuthenticationErrorNamingItAndTheScope() {
    TokenCredential none = new TokenCredential() {
      @Override
      public Mono<AccessToken> getToken(TokenRequestContext request) {
        return Mono.empty();
      }

      @Override
      public AccessToken getTokenSync(TokenRequestContext request) {
        return null;
      }
    };
    assertThatThrownBy(() -> BearerTokens.of(none, ArmClients.SCOPE, new AtomicReference<>()).token(null))
        .isInstanceOf(ClientAuthenticationException.class).hasMessageContaining(ArmClients.SCOPE)
        .hasMessageContaining("gave no token");
  }
}
