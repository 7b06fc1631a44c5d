package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link TokenCache} on a clock the test moves, with the margins of the libraries whose rule it keeps: azure-core's
 * {@code AccessTokenCache} (5 minutes) and google-auth-library's {@code OAuth2Credentials} refresh margin (3 min 45 s,
 * renewed once the time left is the margin or less).
 */
class TokenCacheTest {

  private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
  private static final Duration AZURE_CORE = Duration.ofMinutes(5);
  private static final Duration GOOGLE_AUTH = Duration.ofMinutes(3).plusSeconds(45);

  /** A clock that stands still until the test moves it. */
  private static final class TestClock extends Clock {
    private volatile Instant now = START;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  private final TestClock clock = new TestClock();
  private final AtomicInteger asked = new AtomicInteger();

  /** Tokens {@code token-1}, {@code token-2}, … each valid for {@code lifetime} from when it is asked. */
  private TokenCache.Source<RuntimeException> issuing(Duration lifetime) {
    return () -> new TokenCache.Token("token-" + asked.incrementAndGet(), clock.instant().plus(lifetime));
  }

  @Test
  void aTokenIsKeptUntilTheMarginIsLeftAndAskedForOnceItIs() {
    TokenCache google = TokenCache.withMargin(GOOGLE_AUTH, clock);
    TokenCache.Source<RuntimeException> hour = issuing(Duration.ofSeconds(3599));
    assertThat(google.get(hour)).isEqualTo("token-1");
    clock.now = START.plusSeconds(3599).minus(GOOGLE_AUTH).minusMillis(1);
    assertThat(google.get(hour)).isEqualTo("token-1");
    assertThat(asked).hasValue(1);
    clock.now = START.plusSeconds(3599).minus(GOOGLE_AUTH); // 3 min 45 s left: OAuth2Credentials' STALE
    assertThat(google.get(hour)).isEqualTo("token-2");
    assertThat(google.expiresAt()).contains(clock.now.plusSeconds(3599));

    asked.set(0);
    clock.now = START;
    TokenCache azure = TokenCache.withMargin(AZURE_CORE, clock);
    assertThat(azure.get(hour)).isEqualTo("token-1");
    clock.now = START.plusSeconds(3599).minus(AZURE_CORE).minusSeconds(1);
    assertThat(azure.get(hour)).isEqualTo("token-1");
    clock.now = START.plusSeconds(3599).minus(AZURE_CORE).plusSeconds(1); // past AccessTokenCache's refresh time
    assertThat(azure.get(hour)).isEqualTo("token-2");
    assertThat(asked).hasValue(2);
  }

  @Test
  void aTokenWithLessLifeThanTheMarginOrNoKnownExpiryIsAskedForEachTime() {
    TokenCache tokens = TokenCache.withMargin(AZURE_CORE, clock);
    TokenCache.Source<RuntimeException> short_ = issuing(Duration.ofSeconds(299));
    assertThat(tokens.get(short_)).isEqualTo("token-1");
    assertThat(tokens.get(short_)).isEqualTo("token-2");
    TokenCache.Source<RuntimeException> unknown = () -> new TokenCache.Token("token-" + asked.incrementAndGet(),
        Instant.MIN);
    assertThat(tokens.get(unknown)).isEqualTo("token-3");
    assertThat(tokens.get(unknown)).isEqualTo("token-4");
  }

  @Test
  void renewAsksWhateverIsKeptAndAFailedAskKeepsWhatWasKept() throws IOException {
    TokenCache tokens = TokenCache.withMargin(AZURE_CORE, clock);
    TokenCache.Source<RuntimeException> hour = issuing(Duration.ofHours(1));
    assertThat(tokens.get(hour)).isEqualTo("token-1");
    assertThat(tokens.renew(hour)).isEqualTo("token-2");
    assertThat(tokens.get(hour)).isEqualTo("token-2");

    TokenCache.Source<IOException> failing = () -> {
      asked.incrementAndGet();
      throw new IOException("the token endpoint did not answer");
    };
    assertThatThrownBy(() -> tokens.renew(failing)).isInstanceOf(IOException.class);
    assertThat(tokens.get(failing)).isEqualTo("token-2"); // still fresh: not asked
    assertThat(asked).hasValue(3);
    clock.now = START.plus(Duration.ofHours(1));
    assertThatThrownBy(() -> tokens.get(failing)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> tokens.get(failing)).isInstanceOf(IOException.class); // asked again, nothing kept
    assertThat(asked).hasValue(5);
    assertThatThrownBy(() -> tokens.get(() -> null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("no token");
  }

  @Test
  void callsThatFindNoTokenWaitForOneAsk() throws Exception {
    TokenCache tokens = TokenCache.withMargin(AZURE_CORE, clock);
    CountDownLatch asking = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    TokenCache.Source<InterruptedException> slow = () -> {
      asking.countDown();
      answer.await();
      return new TokenCache.Token("token-" + asked.incrementAndGet(), clock.instant().plus(Duration.ofHours(1)));
    };
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<String>> calls = new ArrayList<>();
      calls.add(threads.submit(() -> tokens.get(slow)));
      assertThat(asking.await(10, TimeUnit.SECONDS)).isTrue();
      CountDownLatch started = new CountDownLatch(7);
      for (int i = 0; i < 7; i++) {
        calls.add(threads.submit(() -> {
          started.countDown();
          return tokens.get(slow);
        }));
      }
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      answer.countDown();
      for (Future<String> call : calls) {
        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("token-1");
      }
      assertThat(asked).hasValue(1);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void theTokenIsNeverInAText() {
    TokenCache tokens = TokenCache.withMargin(AZURE_CORE, clock);
    TokenCache.Token token = new TokenCache.Token("eyJ0eXAiOiJKV1Qi.secret", START.plusSeconds(3600));
    tokens.get(() -> token);
    assertThat(token.toString()).doesNotContain("secret").contains("2026-11-28T01:00:00Z");
    assertThat(tokens.toString()).doesNotContain("secret").contains("PT5M");
    assertThat(TokenCache.withMargin(AZURE_CORE).margin()).isEqualTo(AZURE_CORE);
    assertThatThrownBy(() -> TokenCache.withMargin(Duration.ofSeconds(-1))).isInstanceOf(
        IllegalArgumentException.class);
  }
}
