package io.clusterresolver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

  @Test
  void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
    assertThat(Suggestions.editDistance("", "")).isZero();
    assertThat(Suggestions.editDistance("aws", "aws")).isZero();
    assertThat(Suggestions.editDistance("awz", "aws")).isEqualTo(1);
    assertThat(Suggestions.editDistance("slrum", "slurm")).isEqualTo(2);
    assertThat(Suggestions.editDistance("", "gce")).isEqualTo(3);
    assertThat(Suggestions.editDistance("kitten", "sitting")).isEqualTo(3);
  }

  @Test
  void suggestsOnlyTheClosestCandidateWhenItIsPlausiblyATypo() {
    List<String> providers = List.of("local", "tfconfig", "slurm", "aws");
    assertThat(Suggestions.closest("awz", providers)).contains("aws");
    assertThat(Suggestions.closest("tf-config", providers)).contains("tfconfig");
    assertThat(Suggestions.closest("kubernetes", providers)).isEmpty();
    assertThat(Suggestions.closest("anything", List.of())).isEmpty();
    String key = "clusterresolver.aws.tasks-per-instance";
    assertThat(Suggestions.closest("clusterresolver.aws.task-per-instanse", List.of(key, "clusterresolver.aws.port")))
        .contains(key);
  }

  @Test
  void aWholeOtherNameAfterACommonPrefixIsNotATypo() {
    List<String> keys = List.of("clusterresolver.local.job", "clusterresolver.local.port", "clusterresolver.local.region");
    assertThat(Suggestions.closest("clusterresolver.local.xyz", keys)).isEmpty();
    assertThat(Suggestions.closest("clusterresolver.local.regoin", keys)).contains("clusterresolver.local.region");
    assertThat(Suggestions.closest("clusterresolver.local.prot", keys)).contains("clusterresolver.local.port");
  }
}
