package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Facts that never change, asked once per scope and key; failures and a full cache keep nothing. */
class CatalogCacheTest {

  @Test
  void aFactIsAskedOncePerScopeAndKey() {
    CatalogCache<Integer> gpus = CatalogCache.create();
    AtomicInteger asked = new AtomicInteger();
    assertThat(gpus.get("compute.googleapis.com|p", "us-east1-b/a2-highgpu-2g", () -> asked.incrementAndGet() + 1))
        .isEqualTo(2);
    assertThat(gpus.get("compute.googleapis.com|p", "us-east1-b/a2-highgpu-2g", () -> asked.incrementAndGet() + 10))
        .as("kept: not asked again").isEqualTo(2);
    assertThat(gpus.get("http://127.0.0.1:1|p", "us-east1-b/a2-highgpu-2g", () -> asked.incrementAndGet() + 10))
        .as("another endpoint is another scope").isEqualTo(12);
    assertThat(asked).hasValue(2);
    assertThat(gpus.get("compute.googleapis.com|p", "us-east1-b/a2-highgpu-2g")).contains(2);
    assertThat(gpus.get("compute.googleapis.com|q", "us-east1-b/a2-highgpu-2g")).isEmpty();
  }

  @Test
  void aFailedLookupReachesTheCallerAndKeepsNothing() {
    CatalogCache<Integer> gpus = CatalogCache.create();
    assertThatThrownBy(() -> gpus.get("s", "t", () -> {
      throw new IllegalStateException("403 on machineTypes.get");
    })).isInstanceOf(IllegalStateException.class).hasMessage("403 on machineTypes.get");
    assertThat(gpus.contains("s", "t")).isFalse();
    assertThat(gpus.get("s", "t", () -> 4)).as("asked again").isEqualTo(4);
  }

  @Test
  void putReplacesAndPutIfAbsentKeepsWhatAnAnswerReported() {
    CatalogCache<Map<String, Integer>> types = CatalogCache.create();
    types.put("ec2.us-east-1", "p4d.24xlarge", Map.of("GPU", 8));
    types.putIfAbsent("ec2.us-east-1", "p4d.24xlarge", Map.of());
    types.putIfAbsent("ec2.us-east-1", "t3.micro", Map.of());
    assertThat(types.get("ec2.us-east-1", "p4d.24xlarge")).contains(Map.of("GPU", 8));
    assertThat(types.get("ec2.us-east-1", "t3.micro")).contains(Map.of());
    types.put("ec2.us-east-1", "t3.micro", Map.of("GPU", 0));
    assertThat(types.get("ec2.us-east-1", "t3.micro")).contains(Map.of("GPU", 0));
    assertThat(types.size()).isEqualTo(2);
    types.clear();
    assertThat(types.size()).isZero();
  }

  @Test
  void aFullCacheUsesNewFactsWithoutKeepingThem() {
    CatalogCache<Integer> gpus = CatalogCache.create(2);
    gpus.put("s", "a", 1);
    gpus.put("s", "b", 2);
    assertThat(gpus.get("s", "c", () -> 3)).isEqualTo(3);
    assertThat(gpus.contains("s", "c")).isFalse();
    gpus.put("s", "a", 5);
    assertThat(gpus.get("s", "a")).as("a kept fact may still be replaced").contains(5);
    assertThat(gpus.size()).isEqualTo(2);
  }

  @Test
  void aScopeAndKeyAreTwoNamesNotOneString() {
    CatalogCache<Integer> cache = CatalogCache.create();
    cache.put("a", "b|c", 1);
    assertThat(cache.get("a|b", "c")).as("a scope is its own part of the name").isEmpty();
  }

  @Test
  void aCacheKeepsAtLeastOneFactAndNoNull() {
    assertThatThrownBy(() -> CatalogCache.create(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxEntries");
    CatalogCache<Integer> cache = CatalogCache.create();
    assertThatThrownBy(() -> cache.get("s", "k", () -> null)).isInstanceOf(NullPointerException.class);
  }
}
