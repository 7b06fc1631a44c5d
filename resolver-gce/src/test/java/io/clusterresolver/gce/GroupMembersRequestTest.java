package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.compute.v1.InstanceGroupsClient;
import com.google.cloud.compute.v1.InstanceGroupsListInstancesRequest;
import com.google.cloud.compute.v1.InstanceGroupsSettings;
import com.google.cloud.compute.v1.ListInstancesInstanceGroupsRequest;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The provider's {@code instanceGroups.listInstances} is the request google-cloud-compute's own
 * {@code InstanceGroupsClient} sends (the independent implementation): both are sent to one loopback server, which
 * records them, their bodies included.
 */
class GroupMembersRequestTest {

  private static final String PAGE = "{\"kind\":\"compute#instanceGroupsListInstances\",\"items\":[{\"instance\":"
      + "\"https://www.googleapis.com/compute/v1/projects/p/zones/z/instances/vm-1\"}]}";

  private RecordingHttpServer server;
  private final List<String> bodies = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> {
      bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      RecordingHttpServer.send(exchange, 200, Map.of("Content-Type", "application/json"),
          PAGE.getBytes(StandardCharsets.UTF_8));
    });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest
  @CsvSource({"RUNNING,", "ALL,page+2/of 3"})
  void listInstancesIsTheRequestOfTheSdksClient(String state, String token) throws Exception {
    URI endpoint = server.uri();
    ComputeCalls compute = new ComputeCalls(endpoint, NoCredentialsProvider.create(), AnswerLimit.ofBytes(1 << 20));
    GroupMembersPage page = compute.groupMembers("my-project", "us-east1-b", "trainers", state, token,
        Duration.ofSeconds(10));
    assertThat(page.instances()).containsExactly(
        "https://www.googleapis.com/compute/v1/projects/p/zones/z/instances/vm-1");
    ListInstancesInstanceGroupsRequest.Builder request = ListInstancesInstanceGroupsRequest.newBuilder()
        .setProject("my-project").setZone("us-east1-b").setInstanceGroup("trainers")
        .setMaxResults(ComputeCalls.PAGE_SIZE).setInstanceGroupsListInstancesRequestResource(
            InstanceGroupsListInstancesRequest.newBuilder().setInstanceState(state));
    if (token != null) {
      request.setPageToken(token);
    }
    InstanceGroupsSettings settings = InstanceGroupsSettings.newBuilder().setEndpoint(endpoint.toString())
        .setCredentialsProvider(NoCredentialsProvider.create()).build();
    try (InstanceGroupsClient sdk = InstanceGroupsClient.create(settings)) {
      sdk.listInstances(request.build()).getPage();
    }

    assertThat(server.requests()).hasSize(2);
    RecordingHttpServer.Request ours = server.requests().get(0);
    RecordingHttpServer.Request sdks = server.requests().get(1);
    assertThat(ours.method()).isEqualTo(sdks.method()).isEqualTo("POST");
    assertThat(ours.path()).isEqualTo(sdks.path())
        .isEqualTo("/compute/v1/projects/my-project/zones/us-east1-b/instanceGroups/trainers/listInstances");
    assertThat(ours.query()).isEqualTo(sdks.query()).contains("maxResults=500");
    assertThat(bodies.get(0)).isEqualTo(bodies.get(1)).contains(state);
    assertThat(ours.header("Content-Type")).isEqualToIgnoringCase(sdks.header("Content-Type"));
    assertThat(ours.header("x-goog-request-params")).isEqualTo(sdks.header("x-goog-request-params")).isNotBlank();
    assertThat(ours.header("Authorization")).isNull();
    assertThat(ours.header("Accept-Encoding")).isEqualTo(sdks.header("Accept-Encoding")).contains("gzip");
    // The SDK adds its own library's token (gapic/…) to gl-java/…, gax/… and rest/…: ours is the same less that one.
    assertThat(List.of(sdks.header("x-goog-api-client").split(" ")))
        .containsAll(List.of(ours.header("x-goog-api-client").split(" ")));
  }
}
