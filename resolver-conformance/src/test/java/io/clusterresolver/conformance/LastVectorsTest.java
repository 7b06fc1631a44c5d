package io.clusterresolver.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Issue 22's last kinds of TensorFlow vectors, written here in the data's own shape: each outcome
 * is what TensorFlow's code (tpu_cluster_resolver.py, client.py, kubernetes_cluster_resolver.py,
 * server_lib.py, slurm_cluster_resolver.py, the union's constructor) returns or raises for the
 * setup, hand-encoded protobuf bytes included; none comes from the code under test. Each runs
 * through its area exactly as a file's vector does, and must pass; where the rule could be
 * satisfied by accident, a variant that breaks it must fail.
 */
class LastVectorsTest {

  @BeforeAll
  static void startSimulations() throws Exception {
    TpuConformanceTest.start();
    KubernetesConformanceTest.start();
  }

  @AfterAll
  static void stopSimulations() throws Exception {
    TpuConformanceTest.stop();
    KubernetesConformanceTest.stop();
  }

  private static Vector vector(String json) throws Exception {
    return new Vector(Values.MAPPER.readTree(json));
  }

  /** Runs one vector through an area; fails as the file's runner would. */
  private static void passes(Area area, String json) throws Exception {
    Tally tally = Tally.detached("issue 22");
    VectorRunner.runVector(tally, area, vector(json));
    assertThat(tally.passedCount()).as("passed").isEqualTo(1);
  }

  private static String hex(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      out.append(String.format("%02x", b));
    }
    return out.toString();
  }

  /** A length-delimited field: tag byte, one-byte length, payload (all payloads here are short). */
  private static String field(String tag, String payloadHex) {
    return tag + String.format("%02x", payloadHex.length() / 2) + payloadHex;
  }

  // --- tpu ---------------------------------------------------------------------------------------

  @Test
  void tpuLocalIsWorkerZeroWithNothingRemote() throws Exception {
    // TPUClusterResolver(tpu='local'): task_type = job_name = 'worker', task_id = 0, master() = ''.
    passes(TpuConformanceTest::open, "{\"id\": \"tpu/local/attributes\", \"setup\": {\"nodes\": {}, \"kwargs\":"
        + " {\"tpu\": \"local\"}, \"env\": {}}, \"steps\": [{\"op\": \"construct\", \"value\": null},"
        + " {\"op\": \"task_type\", \"value\": \"worker\"}, {\"op\": \"task_id\", \"value\": 0},"
        + " {\"op\": \"master\", \"args\": [], \"value\": \"\"},"
        + " {\"op\": \"master\", \"args\": [\"worker\", 1], \"kwargs\": {\"rpc_layer\": \"http\"}, \"value\": \"\"},"
        + " {\"op\": \"cluster_spec\", \"value\": {\"jobs\": [], \"as_dict\": {}, \"cluster_def\": {\"hex\": \"\","
        + " \"text\": \"\"}}}]}");
  }

  @Test
  void tpuWithoutAnyNameIsAConfigurationError() throws Exception {
    // client.Client: no tpu, no KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS/TPU_NAME, no TPU_CONFIG -> ValueError.
    passes(TpuConformanceTest::open, "{\"id\": \"tpu/no-name/construct\", \"setup\": {\"nodes\": {}, \"kwargs\": {},"
        + " \"env\": {}}, \"steps\": [{\"op\": \"construct\", \"error\": {\"type\": \"ValueError\", \"message\":"
        + " \"Please provide a TPU Name to connect to.\"}}]}");
  }

  @Test
  void tpuListOfSeveralNamesIsAnErrorOfItsOwn() throws Exception {
    passes(TpuConformanceTest::open, "{\"id\": \"tpu/several/construct\", \"setup\": {\"nodes\": {}, \"kwargs\":"
        + " {\"tpu\": [\"tpu-a\", \"tpu-b\"], \"project\": \"test-project\", \"zone\": \"us-central1-c\"}, \"env\": {}},"
        + " \"steps\": [{\"op\": \"construct\", \"error\": {\"type\": \"NotImplementedError\", \"message\":"
        + " \"Using multiple TPUs in a single session is not yet implemented\"}}]}");
  }

  // --- kubernetes --------------------------------------------------------------------------------

  @Test
  void kubernetesJobWithoutSelectorsStaysEmpty() throws Exception {
    // {'worker': ['job-name=w'], 'ps': []} -> ClusterSpec({'worker': ['10.0.0.1:8470'], 'ps': []}).
    String worker = field("0a", field("0a", hex("worker")) + field("12", "0800" + field("12", hex("10.0.0.1:8470"))));
    String ps = field("0a", field("0a", hex("ps")));
    String json = "{\"id\": \"kubernetes/job-with-no-selectors/cluster_spec\", \"setup\": {\"job_to_label_mapping\":"
        + " {\"worker\": [\"job-name=w\"], \"ps\": []}, \"pods_by_selector\": {\"job-name=w\": [[\"p1\", \"Running\","
        + " \"10.0.0.1\"]]}, \"kwargs\": {}}, \"steps\": [{\"op\": \"cluster_spec\", \"value\": {\"jobs\": [\"worker\","
        + " \"ps\"], \"as_dict\": {\"worker\": [\"10.0.0.1:8470\"], \"ps\": {}}, \"cluster_def\": {\"hex\": \"" + ps + worker
        + "\", \"text\": \"\"}}}]}";
    assertThat(KubernetesConformanceTest.runSteps(vector(json))).isEmpty();
  }

  @Test
  void kubernetesD12KeepsTheRunningPodsForMasterOfJobAndIndex() throws Exception {
    // TF raises for the pod that is not running; D12 leaves it out: task 1 is the second running pod by name.
    String pods = "{\"job-name=tensorflow\": [[\"b\", \"Running\", \"10.0.0.2\"], [\"a\", \"Failed\", \"10.0.0.1\"],"
        + " [\"c\", \"Running\", \"10.0.0.3\"]]}";
    String error = "\"error\": {\"type\": \"RuntimeError\", \"message\": \"Pod \\\"a\\\" is not running; phase: \\\"Failed\\\"\"}";
    String json = "{\"id\": \"kubernetes/pending/master(worker,1)\", \"setup\": {\"job_to_label_mapping\": null,"
        + " \"pods_by_selector\": " + pods + ", \"kwargs\": {}}, \"steps\": [{\"op\": \"master\", \"args\": [\"worker\","
        + " 1], " + error + "}, {\"op\": \"master\", \"args\": [\"worker\", 2], " + error + "}]}";
    assertThat(KubernetesConformanceTest.runSteps(vector(json))).isEmpty();
  }

  // --- devicefilters, clusterspec, union ---------------------------------------------------------

  private static String filters(int... tasks) {
    StringBuilder entries = new StringBuilder();
    for (int task : tasks) {
      entries.append(field("12", String.format("08%02x", task) + field("12", field("0a", hex("/job:ps")))));
    }
    return field("0a", field("0a", hex("worker")) + entries);
  }

  @Test
  void deviceFiltersBuiltTwiceWithAFilterSetInBetweenGiveBothStates() throws Exception {
    String first = filters(0);
    String second = filters(0, 1);
    String marker = "{\"id\": \"devicefilters/build-set-build\", \"setup\": {\"set_device_filters_calls\": [[\"worker\","
        + " 0, [\"/job:ps\"]], \"BUILD\", [\"worker\", 1, [\"/job:ps\"]]]}, \"steps\": [{\"op\": \"build_twice\","
        + " \"value\": [{\"hex\": \"FIRST\"}, {\"hex\": \"" + second + "\"}]}]}";
    passes(DeviceFiltersConformanceTest::open, marker.replace("FIRST", first));
    // a cache that were not invalidated would give the first state twice: the runner must see that
    assertThatThrownBy(() -> passes(DeviceFiltersConformanceTest::open, marker.replace("FIRST", second)))
        .isInstanceOf(AssertionFailedError.class);
    passes(DeviceFiltersConformanceTest::open, "{\"id\": \"devicefilters/build-twice-args\", \"setup\":"
        + " {\"set_device_filters_calls\": [[\"worker\", 0, [\"/job:ps\"]]]}, \"steps\": [{\"op\": \"build_twice\","
        + " \"args\": [\"worker\", 1, [\"/job:ps\"]], \"value\": [{\"hex\": \"" + first + "\"}, {\"hex\": \"" + second
        + "\"}]}]}");
  }

  @Test
  void aClusterDefNamingAJobTwiceIsCheckedAgainstK3() throws Exception {
    String a = field("0a", field("0a", hex("worker")) + field("12", "0800" + field("12", hex("a:1"))));
    String b = field("0a", field("0a", hex("worker")) + field("12", "0801" + field("12", hex("b:1"))));
    String json = "{\"id\": \"clusterspec/def-duplicate-job/as_cluster_def\", \"setup\": {\"from\": \"cluster_def\","
        + " \"cluster_def_hex\": \"" + a + b + "\"}, \"steps\": [{\"op\": \"as_cluster_def\", \"value\": {\"hex\": \"TF\","
        + " \"text\": \"\"}}, {\"op\": \"roundtrip\", \"value\": {\"from_as_dict\": {\"jobs\": [\"worker\"], \"as_dict\":"
        + " {\"worker\": {\"1\": \"b:1\"}}, \"cluster_def\": {\"hex\": \"" + b + "\"}}, \"from_cluster_def\": {\"jobs\":"
        + " [\"worker\"], \"as_dict\": {\"worker\": {\"1\": \"b:1\"}}, \"cluster_def\": {\"hex\": \"TF\"}},"
        + " \"from_cluster_spec\": {\"jobs\": [\"worker\"], \"as_dict\": {\"worker\": {\"1\": \"b:1\"}}, \"cluster_def\":"
        + " {\"hex\": \"TF\"}}, \"equal_all\": true}}]}";
    // TF returns the message it was given (both jobs); a Java spec writes the last job of the name.
    passes(ClusterSpecConformanceTest::open, json.replace("TF", a + b));
    // TF's bytes with the LAST job changed (b:1 -> c:1) must not pass
    String c = field("0a", field("0a", hex("worker")) + field("12", "0801" + field("12", hex("c:1"))));
    assertThatThrownBy(() -> passes(ClusterSpecConformanceTest::open, json.replace("TF", a + c)))
        .isInstanceOf(AssertionFailedError.class);
  }

  @Test
  void anUnknownUnionKeywordHasNoBuilderMethod() throws Exception {
    String json = "{\"id\": \"union/ctor/unknown-kwarg\", \"setup\": {\"resolvers\": [{\"kind\": \"simple\","
        + " \"cluster_spec\": {\"from\": \"dict\", \"cluster\": {\"w\": [\"a:1\"]}}, \"kwargs\": {}}], \"kwargs\":"
        + " {\"KEYWORD\": 1}}, \"steps\": [{\"op\": \"construct\", \"error\": {\"type\": \"ValueError\", \"message\":"
        + " \"Unexpected kwargs provided {'KEYWORD': 1}\"}, \"expect_java_error\": \"IllegalArgumentException\"}]}";
    passes(UnionConformanceTest::open, json.replace("KEYWORD", "environment"));
    // a keyword the builder does have a method for (its own words) is no unknown keyword: the check fails
    assertThatThrownBy(() -> passes(UnionConformanceTest::open, json.replace("KEYWORD", "add")))
        .isInstanceOf(AssertionFailedError.class);
  }

  // --- slurm -------------------------------------------------------------------------------------

  private static String slurm(String id, String env, String kwargs, String steps) {
    return "{\"id\": \"slurm/" + id + "\", \"setup\": {\"env\": {" + env + "}, \"kwargs\": {" + kwargs + "}},"
        + " \"steps\": [" + steps + "]}";
  }

  private static final String CONSTRUCT = "{\"op\": \"construct\", \"value\": null}";

  @Test
  void slurmRulesOfOursReplaceTensorFlowsOutcome() throws Exception {
    String step2 = "\"SLURM_PROCID\": \"0\", \"SLURM_STEP_NUM_TASKS\": \"2\", \"SLURM_STEP_NODELIST\": \"n1\"";
    // port_base=0: TF writes n1:0 and n1:1
    passes(SlurmRules::session, slurm("port-base/0", step2 + ", \"SLURM_STEP_TASKS_PER_NODE\": \"2\"",
        "\"port_base\": 0, \"gpus_per_node\": 2", CONSTRUCT + ", {\"op\": \"cluster_spec\", \"value\": {\"jobs\":"
        + " [\"worker\"], \"as_dict\": {\"worker\": [\"n1:0\", \"n1:1\"]}}}"));
    // 4(x0): TF's regex repeats 4 zero times, leaving [2] for n1
    passes(SlurmRules::session, slurm("tasks-per-node/x0", step2 + ", \"SLURM_STEP_TASKS_PER_NODE\": \"2,4(x0)\"",
        "\"gpus_per_node\": 2", CONSTRUCT + ", {\"op\": \"cluster_spec\", \"value\": {\"jobs\": [\"worker\"],"
        + " \"as_dict\": {\"worker\": [\"n1:8888\", \"n1:8889\"]}}}"));
    // counts for one node of two: TF's zip drops n2
    passes(SlurmRules::session, slurm("tasks-per-node/short", "\"SLURM_PROCID\": \"0\", \"SLURM_STEP_NUM_TASKS\":"
        + " \"2\", \"SLURM_STEP_NODELIST\": \"n[1-2]\", \"SLURM_STEP_TASKS_PER_NODE\": \"2\"", "\"gpus_per_node\": 2",
        CONSTRUCT + ", {\"op\": \"cluster_spec\", \"value\": {\"jobs\": [\"worker\"], \"as_dict\": {\"worker\":"
        + " [\"n1:8888\", \"n1:8889\"]}}}"));
    // rank 2 of a 2-task step: TF constructs, then cluster_spec() indexes its GPU table past the end
    passes(SlurmRules::session, slurm("rank/outside", "\"SLURM_PROCID\": \"2\", \"SLURM_STEP_NUM_TASKS\": \"2\","
        + " \"SLURM_STEP_NODELIST\": \"n1\", \"SLURM_STEP_TASKS_PER_NODE\": \"2\"", "\"gpus_per_node\": 2",
        CONSTRUCT + ", {\"op\": \"cluster_spec\", \"error\": {\"type\": \"IndexError\", \"message\": \"list index out of"
        + " range\"}, \"expect_java_error\": \"IllegalArgumentException\"}"));
    // the own checks (D7-D10 vectors) apply the same rules instead of computing a placement
    SlurmRules.check(vector(slurm("rank/outside-d9", "\"SLURM_PROCID\": \"5\", \"SLURM_STEP_NUM_TASKS\": \"2\","
        + " \"SLURM_STEP_NODELIST\": \"n1\", \"SLURM_STEP_TASKS_PER_NODE\": \"2\"", "", CONSTRUCT)));
    SlurmRules.check(vector(slurm("port-base/0-d9", step2 + ", \"SLURM_STEP_TASKS_PER_NODE\": \"2\"",
        "\"port_base\": 0", CONSTRUCT)));
  }

  @Test
  void aTasksPerNodeItemRepeatedZeroTimesIsRejected() throws Exception {
    passes(HostlistConformanceTest::open, "{\"id\": \"hostlist/expand_tasks_per_node/2,4(x0),1\", \"setup\": {\"input\": \"2,4(x0),1\"},"
        + " \"steps\": [{\"op\": \"expand_tasks_per_node\", \"args\": [\"2,4(x0),1\"], \"value\": [2, 1]}]}");
  }

  @Test
  void aHostListScontrolTookForAnOptionIsJudgedAsSlurmReadsIt() throws Exception {
    String recorded = "{\"id\": \"e999\", \"category\": \"invalid-or-odd\", \"input\": \"-n[1-2]\", \"exit_code\": 1,"
        + " \"stdout\": \"\", \"stderr\": \"scontrol: invalid option -- 'n'\\nTry \\\"scontrol --help\\\" for more"
        + " information\\n\", \"valid\": false, \"count\": null, \"hostnames\": null}";
    assertThat(SlurmHostlistConformanceTest.expandProblem(Values.MAPPER.readTree(recorded))).isNull();
    // a genuine rejection by the host-list parser stays a rejection
    String rejected = recorded.replace("-n[1-2]", "n[2-1]").replace("scontrol: invalid option -- 'n'",
        "Invalid hostlist: n[2-1]");
    assertThat(SlurmHostlistConformanceTest.expandProblem(Values.MAPPER.readTree(rejected))).isNull();
    String accepted = recorded.replace("-n[1-2]", "n[1-2]").replace("scontrol: invalid option -- 'n'",
        "Invalid hostlist: n[1-2]");
    assertThat(SlurmHostlistConformanceTest.expandProblem(Values.MAPPER.readTree(accepted))).contains("rejects");
  }
}
