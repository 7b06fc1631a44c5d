package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@link PodListJson} against an independent reader of the same bytes: fabric8's own Jackson model
 * ({@code PodList}, what the provider bound every pod into before), on a list in the shape a
 * Kubernetes 1.30 API server sends (managed fields, volumes, probes, init containers, nulls), on
 * the testkit's wire format, and with every object's fields reordered and unknown ones added.
 */
class PodListJsonTest {

  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();
  private static final ObjectMapper TREES = new ObjectMapper();

  /** What a resolve reads of a pod, taken from fabric8's model of it by the getters the provider used before. */
  static ListedPod fromModel(Pod pod) {
    ObjectMeta meta = pod.getMetadata();
    OwnerReference controller = meta.getOwnerReferences() == null ? null : meta.getOwnerReferences().stream()
        .filter(o -> Boolean.TRUE.equals(o.getController())).findFirst().orElse(null);
    PodStatus status = pod.getStatus();
    boolean ready = false;
    for (PodCondition c : status.getConditions() == null ? List.<PodCondition>of() : status.getConditions()) {
      if ("Ready".equals(c.getType())) {
        ready = "True".equals(c.getStatus());
        break;
      }
    }
    List<String> ips = new ArrayList<>();
    for (PodIP ip : status.getPodIPs() == null ? List.<PodIP>of() : status.getPodIPs()) {
      if (ip.getIp() != null) {
        ips.add(ip.getIp());
      }
    }
    if (status.getPodIP() != null) {
      ips.add(status.getPodIP());
    }
    List<ListedPod.Container> containers = new ArrayList<>();
    List<Container> specContainers = pod.getSpec() == null || pod.getSpec().getContainers() == null ? List.of()
        : pod.getSpec().getContainers();
    for (Container c : specContainers) {
      List<ListedPod.Port> ports = new ArrayList<>();
      for (ContainerPort p : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
        ports.add(new ListedPod.Port(p.getName(), p.getContainerPort()));
      }
      Map<String, String> limits = new LinkedHashMap<>();
      Map<String, Quantity> modelLimits = c.getResources() == null || c.getResources().getLimits() == null ? Map.of()
          : c.getResources().getLimits();
      modelLimits.forEach((k, q) -> limits.put(k, q.toString()));
      containers.add(new ListedPod.Container(ports, limits));
    }
    return new ListedPod(meta.getName(), meta.getCreationTimestamp(), meta.getDeletionTimestamp() != null,
        meta.getLabels() == null ? Map.of() : meta.getLabels(), controller == null ? null : controller.getKind(),
        controller == null ? null : controller.getName(), status.getPhase(), ready, ips, containers);
  }

  private static void assertReadAlike(String json) {
    PodList model = FABRIC8.unmarshal(json, PodList.class);
    PodListJson.Page page = PodListJson.page(stream(json));
    assertThat(page.resourceVersion()).isEqualTo(model.getMetadata().getResourceVersion());
    assertThat(page.continueToken()).isEqualTo(model.getMetadata().getContinue());
    assertThat(page.pods()).isEqualTo(model.getItems().stream().map(PodListJsonTest::fromModel).toList());
  }

  private static byte[] stream(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private static String fixture() {
    try (InputStream in = PodListJsonTest.class.getResourceAsStream("podlist-1.30.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aListAsAnApiServerSendsItReadsAsFabric8sModelReadsIt() {
    String json = fixture();
    assertReadAlike(json);
    // and the fixture exercises what it should: the values, by hand
    List<ListedPod> pods = PodListJson.page(stream(json)).pods();
    assertThat(pods).extracting(ListedPod::name)
        .containsExactly("trainer-0", "train-3-x9k2p", "trainer-2", "trainer-3", "loose");
    ListedPod first = pods.get(0);
    assertThat(first.podIps()).containsExactly("10.52.3.17", "fd00:10:52:3::11", "10.52.3.17");
    assertThat(first.containers()).hasSize(2);
    assertThat(first.containers().get(0).limits()).containsEntry("nvidia.com/gpu", "8");
    assertThat(first.containers().get(1).limits()).containsEntry("nvidia.com/gpu", "2");
    assertThat(pods.get(1).controllerKind()).isEqualTo("Job");
    assertThat(pods.get(1).ready()).as("the first Ready condition decides").isFalse();
    assertThat(pods.get(1).terminating()).as("deletionTimestamp: null").isFalse();
    assertThat(pods.get(2).terminating()).isTrue();
    assertThat(pods.get(4).ready()).isTrue();
  }

  @Test
  void fieldsInAnyOrderAndFieldsNoVersionHasYetAreReadTheSame() {
    JsonNode tree = TREES.readTree(fixture());
    assertReadAlike(TREES.writeValueAsString(reorderedWithUnknowns(tree, false)));
  }

  /** Maps of names to strings in the API (and managed fields' free form): no field of another kind fits in them. */
  private static final List<String> MAPS = List.of("labels", "annotations", "limits", "requests", "nodeSelector",
      "fieldsV1");

  /**
   * Every object's fields in reverse order and, in every object of the API's types, a field of each
   * JSON type the reader does not know.
   */
  private static JsonNode reorderedWithUnknowns(JsonNode node, boolean inMap) {
    if (node.isObject()) {
      ObjectNode out = TREES.createObjectNode();
      if (!inMap) {
        out.putObject("zFuture").put("nested", 2).putArray("deep").addObject().put("name", "decoy");
      }
      List<String> names = new ArrayList<>(node.propertyNames());
      Collections.reverse(names);
      for (String name : names) {
        out.set(name, reorderedWithUnknowns(node.get(name), inMap || MAPS.contains(name)));
      }
      if (!inMap) {
        out.putArray("aFuture").add("name").add(7).add(true).addNull();
        out.put("mFuture", 1.5e300);
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = TREES.createArrayNode();
      node.forEach(e -> out.add(reorderedWithUnknowns(e, inMap)));
      return out;
    }
    return node;
  }

  @Test
  void theTestkitsWireFormatEveryPageReadsAsFabric8sModelReadsIt() throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "ml", "trainer");
      Instant t0 = Instant.parse("2025-03-01T08:00:00Z");
      for (int i = 0; i < 7; i++) {
        k8s.add(SimulatedPod.builder("ml", "s-" + i).statefulSet("s", i).label("app", "trainer").created(t0.plusSeconds(i))
            .podIps("10.1.0." + i, "fd00::" + i).port("grpc", 2222 + i).limit("nvidia.com/gpu", "" + i).build());
        k8s.add(SimulatedPod.builder("ml", "j-" + i).indexedJob("j", i).label("app", "trainer").ready(i % 2 == 0)
            .terminating(i == 3 ? t0 : null).phase(i == 5 ? "Pending" : "Running").podIps("10.2.0." + i).build());
      }
      HttpClient client = HttpClient.newHttpClient();
      String token = null;
      int pages = 0;
      do {
        URI uri = URI.create(k8s.endpoint() + "/api/v1/namespaces/ml/pods?labelSelector=app%3Dtrainer&limit=5"
            + (token == null ? "" : "&continue=" + java.net.URLEncoder.encode(token, StandardCharsets.UTF_8)));
        String json = client.send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + support.token).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        assertReadAlike(json);
        token = PodListJson.page(stream(json)).continueToken();
        pages++;
      } while (token != null && !token.isEmpty());
      assertThat(pages).isEqualTo(3);
    }
  }

  @Test
  void theContinueTokenIsGivenAsSoonAsItIsReadBeforeTheItemsAndOnlyWhenThereIsOne() {
    // The API server writes a list's metadata before its items: the token is out before a broken item is reached.
    List<String> given = new ArrayList<>();
    assertThatThrownBy(() -> PodListJson.page(stream("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":"
        + "{\"resourceVersion\":\"41\",\"continue\":\"eyJydiI6NDF9\",\"remainingItemCount\":3},\"items\":[{\"metada"),
        given::add)).isInstanceOf(NotTheApiException.class).hasMessageContaining("malformed JSON");
    assertThat(given).containsExactly("eyJydiI6NDF9");

    // Written after the items it is given too, as fabric8's model reads it; none and an empty one are not given.
    String after = "{\"items\":[],\"metadata\":{\"continue\":\"tok-2\",\"resourceVersion\":\"9\"}}";
    given.clear();
    assertThat(PodListJson.page(stream(after), given::add).continueToken())
        .isEqualTo(FABRIC8.unmarshal(after, PodList.class).getMetadata().getContinue());
    assertThat(given).containsExactly("tok-2");
    given.clear();
    PodListJson.page(stream("{\"metadata\":{\"resourceVersion\":\"9\",\"continue\":\"\"},\"items\":[]}"), given::add);
    PodListJson.page(stream("{\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[]}"), given::add);
    assertThat(given).isEmpty();
    PodListJson.page(stream(fixture()), given::add);
    assertThat(given).containsExactly(FABRIC8.unmarshal(fixture(), PodList.class).getMetadata().getContinue());
  }

  @Test
  void anAnswerThatIsNotAListOfPodsIsNotTheApi() {
    assertThatThrownBy(() -> PodListJson.page(stream("{\"message\": \"Welcome to the proxy\"}")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining("metadata.resourceVersion");
    assertThatThrownBy(() -> PodListJson.page(stream("<html><body>Sign in</body></html>")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining("malformed JSON at line 1, column 1");
    assertThatThrownBy(() -> PodListJson.page(stream("{\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[{\"metada")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining("malformed JSON");
    assertThatThrownBy(() -> PodListJson.page(stream("{\"metadata\":{\"resourceVersion\":\"1\"},\"items\":{}}")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining("\"items\" that is not an array");
    assertThatThrownBy(() -> PodListJson.page(stream(
        "{\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[{\"metadata\":{\"namespace\":\"ml\"}}]}")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining("a pod without \"metadata.name\"");
    assertThat(PodListJson.page(stream("{\"kind\":\"PodList\",\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[]}"))
        .pods()).isEmpty();
  }

  @Test
  void aFieldOfTheWrongKindIsNamed() {
    Map<String, String> wrong = Map.of(
        "{\"metadata\":{\"name\":\"a\",\"labels\":\"app=x\"}}", "\"labels\" that is not an object",
        "{\"metadata\":{\"name\":\"a\"},\"spec\":{\"containers\":[1]}}",
        "\"containers\" holding something other than objects",
        "{\"metadata\":{\"name\":\"a\"},\"spec\":{\"containers\":[{\"ports\":{}}]}}", "\"ports\" that is not an array",
        "{\"metadata\":{\"name\":\"a\"},\"status\":{\"phase\":{\"running\":true}}}", "\"phase\" that is not a string");
    wrong.forEach((pod, message) -> assertThatThrownBy(() -> PodListJson.page(stream(
        "{\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[" + pod + "]}")))
        .isInstanceOf(NotTheApiException.class).hasMessageContaining(message));
    // null is no value of any kind, and never an error
    assertThat(PodListJson.page(stream("{\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[{\"metadata\":"
        + "{\"name\":\"a\",\"labels\":null},\"spec\":{\"containers\":null},\"status\":{\"phase\":null}}]}")).pods())
        .singleElement().satisfies(pod -> {
          assertThat(pod.labels()).isEmpty();
          assertThat(pod.containers()).isEmpty();
          assertThat(pod.phase()).isNull();
        });
  }

  @Test
  void aStatusGivesItsReasonAndMessageAndAnythingElseNone() {
    String forbidden = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
        + "\"pods is forbidden: User \\\"system:serviceaccount:ml:trainer\\\" cannot list resource \\\"pods\\\"\","
        + "\"reason\":\"Forbidden\",\"details\":{\"kind\":\"pods\"},\"code\":403}";
    PodListJson.Status status = PodListJson.status(stream(forbidden));
    assertThat(status.reason()).isEqualTo("Forbidden");
    assertThat(status.message()).isEqualTo("pods is forbidden: User \"system:serviceaccount:ml:trainer\" cannot list"
        + " resource \"pods\"");
    assertThat(PodListJson.status(stream("<html>502 Bad Gateway</html>"))).isEqualTo(PodListJson.Status.NONE);
    assertThat(PodListJson.status(stream(""))).isEqualTo(PodListJson.Status.NONE);
  }

  @Test
  void creationTimesReadByHandAgreeWithInstantParse() {
    for (String t : List.of("2025-03-01T08:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z",
        "2025-03-01T08:00:03.123456Z")) {
      assertThat(Pods.instant(t)).as(t).isEqualTo(Instant.parse(t));
    }
    assertThat(Pods.instant("2025-02-29T08:00:00Z")).as("no such day").isNull();
    assertThat(Pods.instant("not a time")).isNull();
    assertThat(Pods.instant(null)).isNull();
  }
}
