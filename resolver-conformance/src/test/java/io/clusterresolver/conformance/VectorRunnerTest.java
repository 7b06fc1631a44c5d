package io.clusterresolver.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The runner's own rules, on synthetic vectors: a runner that passes everything would fail here. */
class VectorRunnerTest {

  private static Vector vector(String json) throws Exception {
    return new Vector(Values.MAPPER.readTree(json));
  }

  /** An area whose ops return fixed results or throw. */
  private static final Area AREA = v -> step -> {
    switch (step.op()) {
      case "map":
        return Map.of("b", List.of(1, 2), "a", "x");
      case "iae":
        throw new IllegalArgumentException("bad");
      case "npe":
        throw new NullPointerException();
      case "proto":
        return Values.protoResult(new byte[] {0x0a, 0x01});
      case "python":
        throw new Area.SkipStep("Python repr");
      default:
        throw new Area.UnknownOp(step);
    }
  };

  private static Tally run(String json) throws Exception {
    Tally tally = Tally.detached("synthetic");
    VectorRunner.runVector(tally, AREA, vector(json));
    return tally;
  }

  @Test
  void mapsCompareByContentAndArraysInOrder() throws Exception {
    assertThat(run("{\"id\":\"v\",\"steps\":[{\"op\":\"map\",\"value\":{\"a\":\"x\",\"b\":[1,2]}}]}").passedCount())
        .isEqualTo(1);
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"map\",\"value\":{\"a\":\"x\",\"b\":[2,1]}}]}"))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("$.b[0]");
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"map\",\"value\":{\"a\":\"x\"}}]}"))
        .isInstanceOf(AssertionFailedError.class);
  }

  @Test
  void protobufResultsCompareHexOnly() throws Exception {
    assertThat(run("{\"id\":\"v\",\"steps\":[{\"op\":\"proto\",\"value\":{\"hex\":\"0a01\",\"text\":\"anything\"}}]}")
        .passedCount()).isEqualTo(1);
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"proto\",\"value\":{\"hex\":\"0a02\",\"text\":\"\"}}]}"))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("hex");
  }

  @Test
  void errorsMapToJavaExceptions() throws Exception {
    String iae = "{\"id\":\"v\",\"steps\":[{\"op\":\"iae\",\"error\":{\"type\":\"ValueError\",\"message\":\"m\"},"
        + "\"expect_java_error\":\"IllegalArgumentException\"}]}";
    assertThat(run(iae).passedCount()).isEqualTo(1);
    assertThatThrownBy(() -> run(iae.replace("\"iae\"", "\"npe\"")))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("NullPointerException");
    assertThatThrownBy(() -> run(iae.replace("\"iae\"", "\"map\"")))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("got the value");
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"iae\",\"error\":{\"type\":\"ValueError\"}}]}"))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("expect_java_error");
  }

  @Test
  void deviationsSkipUnlessJavaSaysWhatToExpect() throws Exception {
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"deviation\":\"D3\",\"steps\":[{\"op\":\"map\",\"value\":1}]}"))
        .isInstanceOf(TestAbortedException.class).hasMessageStartingWith("D3 (typed inputs");
    assertThat(run("{\"id\":\"v\",\"steps\":[{\"op\":\"iae\",\"value\":\"tf\",\"deviation\":\"D2\","
        + "\"java\":{\"error\":\"IllegalArgumentException\"}}]}").passedCount()).isEqualTo(1);
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"map\",\"value\":{},\"deviation\":\"D1\","
        + "\"java\":{\"value\":{\"a\":\"y\",\"b\":[1,2]}}}]}"))
        .isInstanceOf(AssertionFailedError.class);
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"map\",\"not_run\":\"2^31 elements\"}]}"))
        .isInstanceOf(TestAbortedException.class).hasMessage("not_run: 2^31 elements");
  }

  @Test
  void anUnknownOpIsAFailureNotASkip() {
    assertThatThrownBy(() -> run("{\"id\":\"v\",\"steps\":[{\"op\":\"frobnicate\",\"value\":null}]}"))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("unknown op 'frobnicate'");
  }

  @Test
  void aVectorWithSomeSkippedStepsPassesAndKeepsTheReasons() throws Exception {
    Tally tally = run("{\"id\":\"v\",\"steps\":[{\"op\":\"python\",\"value\":\"x\"},{\"op\":\"map\","
        + "\"value\":{\"a\":\"x\",\"b\":[1,2]}}]}");
    assertThat(tally.passedCount()).isEqualTo(1);
    assertThat(tally.report()).contains("(step) Python repr");
    assertThatThrownBy(() -> Tally.detached("t").skipped(" ")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void inputsDecodeTaggedValues() throws Exception {
    JsonNode node = Values.MAPPER.readTree("{\"$dict\": [[1, \"a\"], [\"x\", {\"$tuple\": [1]}], [2, {\"$bytes_hex\": \"ff\"}]]}");
    @SuppressWarnings("unchecked")
    Map<Object, Object> dict = (Map<Object, Object>) Values.decode(node);
    assertThat(List.copyOf(dict.keySet())).isEqualTo(List.of(1, "x", 2));
    assertThat(dict.get("x")).isInstanceOf(Values.Tuple.class);
    assertThat((byte[]) dict.get(2)).containsExactly((byte) 0xff);
  }
}
