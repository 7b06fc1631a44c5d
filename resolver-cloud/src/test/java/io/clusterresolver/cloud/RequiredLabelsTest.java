package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every wanted label, name and value exactly. */
class RequiredLabelsTest {

  private final RequiredLabels workers = new RequiredLabels(Map.of("role", "worker", "team", "ml"));

  @Test
  void aMemberHoldingEveryWantedLabelMatchesWhateverElseItHolds() {
    assertThat(workers.matches(Map.of("role", "worker", "team", "ml", "env", "prod"))).isTrue();
  }

  @Test
  void aMissingOrDifferentLabelDoesNotMatch() {
    assertThat(workers.matches(Map.of("role", "worker"))).isFalse();
    assertThat(workers.matches(Map.of("role", "worker", "team", "ML"))).as("values are exact").isFalse();
    assertThat(workers.matches(Map.of("Role", "worker", "team", "ml"))).as("names are exact").isFalse();
    assertThat(workers.matches(Map.of("role", "worker", "team", "ml "))).isFalse();
    assertThat(workers.matches((Map<String, String>) null)).isFalse();
  }

  @Test
  void noWantedLabelSelectsEveryMember() {
    RequiredLabels none = new RequiredLabels(Map.of());
    assertThat(none.matches(Map.of())).isTrue();
    assertThat(none.matches((Map<String, String>) null)).isTrue();
  }

  @Test
  void aCloudFindsNamesItsOwnWayAndValuesStayExact() {
    Map<String, String> tags = Map.of("ROLE", "worker", "Team", "ml");
    assertThat(workers.matches(name -> tags.entrySet().stream()
        .filter(e -> e.getKey().toLowerCase(Locale.ROOT).equals(name)).map(Map.Entry::getValue)
        .findFirst().orElse(null))).isTrue();
    assertThat(workers.matches(tags)).isFalse();
  }
}
