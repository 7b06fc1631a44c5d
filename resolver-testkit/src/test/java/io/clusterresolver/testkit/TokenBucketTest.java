package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bucket on a simulated clock: capacity, refill, the cap, and that a throttled request takes nothing. */
class TokenBucketTest {

  private final AtomicLong now = new AtomicLong();

  private int take(TokenBucket bucket, int n) {
    int served = 0;
    for (int i = 0; i < n; i++) {
      served += bucket.tryTake() ? 1 : 0;
    }
    return served;
  }

  @Test
  void servesItsCapacityAtOnceThenItsRefillRate() {
    TokenBucket bucket = TokenBucket.of(100, 20, now::get);
    assertThat(take(bucket, 150)).isEqualTo(100);
    now.addAndGet(1_000_000_000L); // 1 s: 20 tokens
    assertThat(take(bucket, 50)).isEqualTo(20);
    now.addAndGet(49_999_999L); // just under one token
    assertThat(bucket.tryTake()).isFalse();
    now.addAndGet(1);
    assertThat(bucket.tryTake()).isTrue();
    assertThat(bucket.served()).isEqualTo(121);
    assertThat(bucket.throttled()).isEqualTo(150 - 100 + 50 - 20 + 1);
  }

  @Test
  void neverHoldsMoreThanItsCapacity() {
    TokenBucket bucket = TokenBucket.of(100, 20, now::get);
    now.addAndGet(3_600_000_000_000L); // an idle hour
    assertThat(take(bucket, 500)).isEqualTo(100);
  }

  @Test
  void ec2sPublishedBucketForNonMutatingActions() {
    TokenBucket bucket = TokenBucket.ec2NonMutating();
    assertThat(bucket.capacity()).isEqualTo(100);
    assertThat(bucket.refillPerSecond()).isEqualTo(20);
    assertThatThrownBy(() -> TokenBucket.of(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TokenBucket.of(10, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void googlesPerMinuteQuotaIsTheMinutesRequestsAtOnceThenASixtiethASecond() {
    TokenBucket bucket = TokenBucket.googlePerMinute(600);
    assertThat(bucket.capacity()).isEqualTo(600);
    assertThat(bucket.refillPerSecond()).isEqualTo(10);
  }

  @Test
  void clientGosDefaultIsABurstOfTenThenFiveASecond() {
    TokenBucket bucket = TokenBucket.kubernetesClientDefault();
    assertThat(bucket.capacity()).isEqualTo(10);
    assertThat(bucket.refillPerSecond()).isEqualTo(5);
  }
}
