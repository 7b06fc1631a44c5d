package io.clusterresolver.tfconfig;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.Resolution;
import java.util.Map;

/**
 * Fuzz test (Jazzer) of the TF_CONFIG reader: any text as {@code TF_CONFIG}. Documented failures
 * only ({@code IllegalArgumentException}, {@code ClusterResolverException}); what it accepts, written
 * back by {@link TfConfigWriter}, reads as the same answer. Seeds in
 * {@code src/test/resources/io/clusterresolver/tfconfig/TfConfigFuzzTestInputs/}; docs/reliability.md.
 */
class TfConfigFuzzTest {

  @FuzzTest(maxDuration = "3m")
  void tfConfig(FuzzedDataProvider data) {
    String tfConfig = data.consumeRemainingAsString();
    Resolution first;
    try {
      first = ClusterResolvers.create("tfconfig", Map.of(), Map.of("TF_CONFIG", tfConfig)).resolve();
    } catch (IllegalArgumentException | ClusterResolverException documented) {
      assertThat(documented.getMessage()).isNotBlank();
      return;
    }
    String written = TfConfigWriter.write(first.clusterSpec(), first.taskType().orElse(null),
        first.taskId().isPresent() ? first.taskId().getAsInt() : null, first.rpcLayer().orElse(null));
    Resolution again = ClusterResolvers.create("tfconfig", Map.of(), Map.of("TF_CONFIG", written)).resolve();
    assertThat(again.clusterSpec()).as("%s written as %s", tfConfig, written).isEqualTo(first.clusterSpec());
    assertThat(again.taskType()).isEqualTo(first.taskType());
    // TfConfigWriter writes "task" only with a type (its documented contract): an index alone is dropped.
    if (first.taskType().isPresent()) {
      assertThat(again.taskId()).isEqualTo(first.taskId());
    } else {
      assertThat(again.taskId()).isEmpty();
    }
  }
}
