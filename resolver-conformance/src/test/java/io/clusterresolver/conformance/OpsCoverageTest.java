package io.clusterresolver.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Every op the conformance README lists runs in every area that uses it, on synthetic vectors whose
 * expected values are written from the README's meaning of the op (not from the code under test).
 */
class OpsCoverageTest {

  private static Tally run(Area area, String json) throws Exception {
    Tally tally = Tally.detached("synthetic");
    VectorRunner.runVector(tally, area, new Vector(Values.MAPPER.readTree(json)));
    return tally;
  }

  private static final String UNION_SETUP = "\"setup\": {\"resolvers\": [{\"kind\": \"simple\", \"cluster_spec\":"
      + " {\"from\": \"dict\", \"cluster\": {\"w\": [\"a:1\", \"b:2\"]}}}], \"kwargs\": {\"rpc_layer\": \"grpc\"}}";

  @Test
  void unionSettersChangeOneAttributeOfTheResolver() throws Exception {
    String vector = "{\"id\": \"union/setters\", " + UNION_SETUP + ", \"steps\": ["
        + "{\"op\": \"task_type\", \"value\": null},"
        + "{\"op\": \"set_task_type\", \"args\": [\"w\"], \"value\": null},"
        + "{\"op\": \"set_task_id\", \"args\": [1], \"value\": null},"
        + "{\"op\": \"task_type\", \"value\": \"w\"},"
        + "{\"op\": \"task_id\", \"value\": 1},"
        + "{\"op\": \"master\", \"args\": [\"w\", 1], \"value\": \"grpc://b:2\"},"
        + "{\"op\": \"set_rpc_layer\", \"args\": [\"grpc+verbs\"], \"value\": null},"
        + "{\"op\": \"rpc_layer\", \"value\": \"grpc+verbs\"},"
        + "{\"op\": \"set_task_type\", \"args\": [null], \"value\": null},"
        + "{\"op\": \"task_type\", \"value\": null}]}";
    assertThat(run(UnionConformanceTest::open, vector).passedCount()).isEqualTo(1);
    // a setter that were ignored would leave task_type unset: the runner must see that
    String ignored = vector.replace("{\"op\": \"task_type\", \"value\": \"w\"}", "{\"op\": \"task_type\", \"value\": \"x\"}");
    assertThatThrownBy(() -> run(UnionConformanceTest::open, ignored)).isInstanceOf(AssertionFailedError.class);
  }

  @Test
  void buildTwiceGivesBothResults() throws Exception {
    // device_filters.proto: ClusterDeviceFilters{jobs=1: JobDeviceFilters{name=1, tasks=2: map<int32,
    // TaskDeviceFilters{device_filters=1}>}}; worker/0 -> ["/job:ps"], written by hand.
    String entry = "0800" + "1209" + "0a07" + hex("/job:ps");
    String job = "0a06" + hex("worker") + "120d" + entry;
    String bytes = "0a" + String.format("%02x", job.length() / 2) + job;
    String vector = "{\"id\": \"devicefilters/twice\", \"setup\": {\"set_device_filters_calls\": [[\"worker\", 0,"
        + " [\"/job:ps\"]]]}, \"steps\": [{\"op\": \"build_twice\", \"value\": [{\"hex\": \"" + bytes + "\"},"
        + " {\"hex\": \"" + bytes + "\"}]}]}";
    assertThat(run(DeviceFiltersConformanceTest::open, vector).passedCount()).isEqualTo(1);
    String one = "{\"id\": \"devicefilters/once\", \"setup\": {\"set_device_filters_calls\": [[\"worker\", 0,"
        + " [\"/job:ps\"]]]}, \"steps\": [{\"op\": \"build_twice\", \"value\": {\"hex\": \"" + bytes + "\"}}]}";
    assertThatThrownBy(() -> run(DeviceFiltersConformanceTest::open, one)).isInstanceOf(AssertionFailedError.class);
  }

  private static String hex(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      out.append(String.format("%02x", b));
    }
    return out.toString();
  }

  @Test
  void anUnsortedClusterDefIsComparedAsParsedMessagesThatCanDiffer() throws Exception {
    // TF's own vector: worker {0: w0:1, 1: w1:1} then ps {0: p0:1}, returned by TF unsorted.
    String tfHex = "0a1c0a06776f726b657212080800120477303a3112080801120477313a310a0e0a02707312080800120470303a31";
    String vector = "{\"id\": \"clusterspec/unsorted\", \"setup\": {\"from\": \"cluster_def\", \"cluster_def_hex\": \""
        + tfHex + "\"}, \"steps\": [{\"op\": \"as_cluster_def\", \"value\": {\"hex\": \"HEX\"}}]}";
    assertThat(run(ClusterSpecConformanceTest::open, vector.replace("HEX", tfHex)).passedCount()).isEqualTo(1);
    // TF's answer with p0:1 changed to p9:1 ("30" -> "39" in the last task) must not pass
    String other = tfHex.substring(0, tfHex.length() - 6) + "393a31";
    assertThatThrownBy(() -> run(ClusterSpecConformanceTest::open, vector.replace("HEX", other)))
        .isInstanceOf(AssertionFailedError.class).hasMessageContaining("p9:1");
  }
}
