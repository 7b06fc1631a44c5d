package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What makes two processes' listings the same query, and the relay's wait. */
class ListingSharingTest {

  private static final ConfigProperty<String> ZONE = ConfigProperty.string("zone").build();
  private static final ConfigProperty<String> TOKEN = ConfigProperty.string("token").secret().build();
  private static final List<ConfigProperty<?>> DECLARED;

  static {
    List<ConfigProperty<?>> all = new ArrayList<>(List.of(ZONE, TOKEN));
    all.addAll(CloudProperties.layout(CloudProperties.tasksPerMember("tasks-per-vm")));
    all.addAll(ListingSharing.ALL);
    DECLARED = List.copyOf(all);
  }

  private static ResolverConfig config(String... keyValues) {
    Map<String, String> p = new java.util.HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.mycloud." + keyValues[i], keyValues[i + 1]);
    }
    return ResolverConfig.resolve("mycloud", DECLARED, PropertySources.withEnvironment(p, Map.of()));
  }

  private static String query(String... keyValues) {
    return ListingSharing.query(config(keyValues), DECLARED, "resolved-elsewhere");
  }

  @Test
  void processesOfOneJobShareWhateverTaskTheyAre() {
    assertThat(query("zone", "z1", "task-type", "worker", "task-id", "3", "rpc-layer", "grpc+verbs",
        "timeout", "1m", "relay", "10.0.0.5:7777", "shared-listing-max-age", "5s"))
        .isEqualTo(query("zone", "z1", "task-type", "chief", "task-id", "0"));
    assertThat(TaskProperties.ALL).isNotEmpty();
  }

  @Test
  void anythingThatChangesTheListingIsAnotherQueryAndSecretsAreNeverInClear() {
    String base = query("zone", "z1", "token", "s3cr3t-token-value");
    assertThat(query("zone", "z2", "token", "s3cr3t-token-value")).isNotEqualTo(base);
    assertThat(query("zone", "z1", "token", "another-token")).isNotEqualTo(base);
    assertThat(query("zone", "z1", "token", "s3cr3t-token-value", "job-tag", "role")).isNotEqualTo(base);
    assertThat(ListingSharing.query(config("zone", "z1", "token", "s3cr3t-token-value"), DECLARED, "elsewhere-2"))
        .isNotEqualTo(base).doesNotContain("elsewhere-2");
    assertThat(base).doesNotContain("s3cr3t").contains("sha256:" + SharedListing.digest("s3cr3t-token-value"));
  }

  @Test
  void theRelaysWaitIsAThirdOfTheTimeoutUnlessSet() {
    assertThat(ListingSharing.relayWait(config())).isEqualTo(Duration.ofSeconds(10));
    assertThat(ListingSharing.relayWait(config("timeout", "5s"))).isEqualTo(Duration.ofNanos(5_000_000_000L / 3));
    assertThat(ListingSharing.relayWait(config("timeout", "5s", "relay-wait", "2s"))).isEqualTo(Duration.ofSeconds(2));
    List<String> problems = new ArrayList<>();
    ListingSharing.relayAddress(config("relay", "127.0.0.1:7777", "timeout", "5s", "relay-wait", "5s",
        "relay-insecure", "true"), problems);
    assertThat(problems).singleElement().asString()
        .contains("clusterresolver.mycloud.relay-wait (PT5S) must be shorter than clusterresolver.mycloud.timeout");
  }

  private static List<String> relayProblems(String... keyValues) {
    List<String> problems = new ArrayList<>();
    ListingSharing.relayAddress(config(keyValues), problems);
    return problems;
  }

  @Test
  void aRelayNeedsASecretUnlessTheUserSaysInsecure() throws Exception {
    assertThat(relayProblems("relay", "127.0.0.1:7777")).singleElement().asString()
        .contains("clusterresolver.mycloud.relay needs a secret")
        .contains("clusterresolver.mycloud.relay-secret-file").contains("clusterresolver.mycloud.relay-insecure=true");
    assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-insecure", "true")).isEmpty();
    assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret", "0123456789abcdef0123")).isEmpty();
    assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret", "short-secret")).singleElement().asString()
        .startsWith("clusterresolver.mycloud.relay-secret: the relay secret is shorter than 16").doesNotContain("short-secret");
    assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret", "0123456789abcdef0123", "relay-insecure", "true"))
        .singleElement().asString().contains("contradict");
    java.nio.file.Path file = java.nio.file.Files.createTempFile("relay-secret", "");
    try {
      java.nio.file.Files.writeString(file, "0123456789abcdef0123456789abcdef\n");
      assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret-file", file.toString())).isEmpty();
      assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret-file", file.toString(), "relay-secret",
          "0123456789abcdef0123")).singleElement().asString().contains("are both set");
      assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret-file", "/dev/zero")).singleElement().asString()
          .startsWith("clusterresolver.mycloud.relay-secret-file: /dev/zero holds more than 4096 bytes");
      assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret-file", file + ".absent")).singleElement()
          .asString().startsWith("clusterresolver.mycloud.relay-secret-file: cannot read the secret from " + file
              + ".absent");
      java.nio.file.Files.writeString(file, " \n");
      assertThat(relayProblems("relay", "127.0.0.1:7777", "relay-secret-file", file.toString())).singleElement()
          .asString().contains("the relay secret is empty");
    } finally {
      java.nio.file.Files.delete(file);
    }
  }
}
