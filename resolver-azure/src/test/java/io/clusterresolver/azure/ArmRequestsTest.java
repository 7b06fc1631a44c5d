package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.policy.AddHeadersPolicy;
import com.azure.core.http.policy.RequestIdPolicy;
import com.azure.core.util.Context;
import com.azure.resourcemanager.compute.implementation.ComputeManagementClientBuilder;
import com.azure.resourcemanager.compute.implementation.ComputeManagementClientImpl;
import com.azure.resourcemanager.compute.models.ExpandTypeForListVMs;
import com.azure.resourcemanager.network.implementation.NetworkManagementClientBuilder;
import com.azure.resourcemanager.network.implementation.NetworkManagementClientImpl;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each Resource Manager read {@link ArmClients} sends on {@link ArmHttp} is the request the SDK's generated
 * management clients (azure-resourcemanager-compute and -network, the independent implementation) send for the same
 * operation: both go to one loopback server, which records them. The SDK's clients run on a pipeline of azure-core's
 * own policies (its request id, the same bearer header); what the generated code writes (method, path, query, {@code
 * Accept}) is compared, and a request id is sent by both.
 */
class ArmRequestsTest {

  private static final String SUBSCRIPTION = "a1b2c3d4-0000-4000-8000-00000000a2e0";
  private static final String RG = "my rg";
  private static final String SET = "train-set";
  private static final String FILTER = "'virtualMachineScaleSet/id' eq '/subscriptions/s/x'";
  private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private RecordingHttpServer server;

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> {
      String body = request.path().endsWith("/" + SET)
          ? "{\"id\":\"/subscriptions/s/x\",\"properties\":{\"orchestrationMode\":\"Uniform\"}}" : "{\"value\":[]}";
      RecordingHttpServer.send(exchange, 200, Map.of("Content-Type", "application/json"),
          body.getBytes(StandardCharsets.UTF_8));
    });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** An operation as ours sends it and as the SDK's generated client sends it. */
  record Operation(String name, Consumer<ArmClients> ours, Consumer<ComputeManagementClientImpl> compute,
      Consumer<NetworkManagementClientImpl> network) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> operations() {
    Deadline d = Deadline.after(Duration.ofSeconds(20));
    Runnable none = () -> { };
    return Stream.of(
        new Operation("VirtualMachines.ListByResourceGroup",
            arm -> arm.virtualMachines(RG, FILTER, true).page(null, d, none),
            sdk -> sdk.getVirtualMachines().listByResourceGroup(RG, FILTER, ExpandTypeForListVMs.INSTANCE_VIEW,
                Context.NONE).iterableByPage().iterator().next(), null),
        new Operation("VirtualMachines.ListAll(statusOnly)",
            arm -> arm.virtualMachinesWithStatus(FILTER).page(null, d, none),
            sdk -> sdk.getVirtualMachines().list("true", FILTER, null, Context.NONE).iterableByPage().iterator().next(),
            null),
        new Operation("VirtualMachineScaleSetVMs.List",
            arm -> arm.scaleSetVms(RG, SET).page(null, d, none),
            sdk -> sdk.getVirtualMachineScaleSetVMs().list(RG, SET, null, null, "instanceView", Context.NONE)
                .iterableByPage().iterator().next(), null),
        new Operation("VirtualMachineScaleSets.Get",
            arm -> arm.scaleSet(RG, SET, d),
            sdk -> sdk.getVirtualMachineScaleSets().getByResourceGroup(RG, SET), null),
        new Operation("ResourceSkus.List",
            arm -> arm.resourceSkus("location eq 'eastus'").page(null, d, none),
            sdk -> sdk.getResourceSkus().list("location eq 'eastus'", null, Context.NONE).iterableByPage().iterator()
                .next(), null),
        new Operation("NetworkInterfaces.ListByResourceGroup",
            arm -> arm.networkInterfaces(RG).page(null, d, none), null,
            sdk -> sdk.getNetworkInterfaces().listByResourceGroup(RG, Context.NONE).iterableByPage().iterator().next()),
        new Operation("NetworkInterfaces.ListAll",
            arm -> arm.networkInterfaces(null).page(null, d, none), null,
            sdk -> sdk.getNetworkInterfaces().list(Context.NONE).iterableByPage().iterator().next()),
        new Operation("NetworkInterfaces.ListVirtualMachineScaleSetNetworkInterfaces",
            arm -> arm.scaleSetNetworkInterfaces(RG, SET).page(null, d, none), null,
            sdk -> sdk.getNetworkInterfaces().listVirtualMachineScaleSetNetworkInterfaces(RG, SET, Context.NONE)
                .iterableByPage().iterator().next()),
        new Operation("PublicIPAddresses.ListByResourceGroup",
            arm -> arm.publicIpAddresses(RG).page(null, d, none), null,
            sdk -> sdk.getPublicIpAddresses().listByResourceGroup(RG, Context.NONE).iterableByPage().iterator().next()),
        new Operation("PublicIPAddresses.ListAll",
            arm -> arm.publicIpAddresses(null).page(null, d, none), null,
            sdk -> sdk.getPublicIpAddresses().list(Context.NONE).iterableByPage().iterator().next()),
        new Operation("PublicIPAddresses.ListVirtualMachineScaleSetPublicIPAddresses",
            arm -> arm.scaleSetPublicIpAddresses(RG, SET).page(null, d, none), null,
            sdk -> sdk.getPublicIpAddresses().listVirtualMachineScaleSetPublicIpAddresses(RG, SET, Context.NONE)
                .iterableByPage().iterator().next()))
        .map(Arguments::of);
  }

  @ParameterizedTest
  @MethodSource("operations")
  void ourRequestIsTheGeneratedClients(Operation operation) {
    ArmClients ours = ArmClients.create(server.uri(), SUBSCRIPTION, new ArmHttp(null,
        BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), Duration.ofSeconds(20)), BearerTokens.fixed("t"), null));
    operation.ours().accept(ours);
    HttpPipeline pipeline = new HttpPipelineBuilder().policies(new RequestIdPolicy(),
        new AddHeadersPolicy(new HttpHeaders().set(HttpHeaderName.AUTHORIZATION, "Bearer t"))).build();
    if (operation.compute() != null) {
      operation.compute().accept(new ComputeManagementClientBuilder().pipeline(pipeline)
          .endpoint(server.uri().toString()).subscriptionId(SUBSCRIPTION).buildClient());
    } else {
      operation.network().accept(new NetworkManagementClientBuilder().pipeline(pipeline)
          .endpoint(server.uri().toString()).subscriptionId(SUBSCRIPTION).buildClient());
    }

    List<RecordingHttpServer.Request> requests = server.requests();
    assertThat(requests).hasSize(2);
    RecordingHttpServer.Request mine = requests.get(0);
    RecordingHttpServer.Request sdks = requests.get(1);
    assertThat(mine.method()).isEqualTo(sdks.method()).isEqualTo("GET");
    assertThat(mine.path()).isEqualTo(sdks.path()).startsWith("/subscriptions/" + SUBSCRIPTION + "/");
    assertThat(query(mine.query())).isEqualTo(query(sdks.query())).anyMatch(p -> p.startsWith("api-version="));
    assertThat(mine.header("Accept")).isEqualTo(sdks.header("Accept"));
    assertThat(mine.header("Authorization")).isEqualTo(sdks.header("Authorization")).isEqualTo("Bearer t");
    assertThat(mine.header("x-ms-client-request-id")).matches(UUID);
    assertThat(sdks.header("x-ms-client-request-id")).matches(UUID);
    assertThat(mine.header("Accept-Encoding")).isEqualTo("gzip");
    assertThat(mine.header("User-Agent")).isEqualTo(ArmHttp.USER_AGENT);
  }

  /** The query's parameters, in any order (their order is no part of the request's meaning). */
  private static List<String> query(String raw) {
    return raw == null ? List.of() : Stream.of(raw.split("&")).sorted().toList();
  }
}
