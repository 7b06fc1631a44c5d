package io.clusterresolver.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real grpc-java channels on loopback, addressed as cluster://grpctest/JOB. */
class ClusterNameResolverTest {

  private static final MethodDescriptor.Marshaller<String> TEXT = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final MethodDescriptor<String, String> WHO = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName("test.Who/Ask")
      .setRequestMarshaller(TEXT)
      .setResponseMarshaller(TEXT)
      .build();

  private final List<Server> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    for (Server server : servers) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    TestProvider.FAILURE.set(null);
    TestProvider.CRASH.set(null);
  }

  /** A server on a free loopback port that answers with its own name. */
  private String server(String name) throws IOException {
    Server server = ServerBuilder.forPort(0)
        .addService(ServerServiceDefinition.builder("test.Who")
            .addMethod(WHO, ServerCalls.asyncUnaryCall((request, out) -> {
              out.onNext(name);
              out.onCompleted();
            }))
            .build())
        .build()
        .start();
    servers.add(server);
    return "127.0.0.1:" + server.getPort();
  }

  private ManagedChannel channel(String target) {
    ManagedChannel channel = ManagedChannelBuilder.forTarget(target).usePlaintext()
        .defaultLoadBalancingPolicy("round_robin").build();
    channels.add(channel);
    return channel;
  }

  private static String ask(ManagedChannel channel) {
    return ClientCalls.blockingUnaryCall(channel, WHO, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "?");
  }

  @Test
  void theServiceLoaderEntryRegistersTheClusterScheme() {
    assertThat(ServiceLoader.load(NameResolverProvider.class))
        .anySatisfy(p -> assertThat(p).isInstanceOf(ClusterNameResolverProvider.class));
    assertThat(NameResolverRegistry.getDefaultRegistry().getProviderForScheme("cluster"))
        .isInstanceOf(ClusterNameResolverProvider.class);
  }

  @Test
  void aChannelReachesEveryTaskOfTheJob() throws Exception {
    TestProvider.CLUSTER.set(Map.of("worker", List.of(server("w0"), server("w1")), "ps", List.of(server("p0"))));
    ManagedChannel channel = channel("cluster://grpctest/worker");
    Set<String> answered = new HashSet<>();
    for (int i = 0; i < 20 && answered.size() < 2; i++) {
      answered.add(ask(channel));
    }
    // round_robin over the job's two tasks, never the ps task.
    assertThat(answered).containsExactlyInAnyOrder("w0", "w1");
    assertThat(ask(channel("cluster://grpctest/ps"))).isEqualTo("p0");
  }

  @Test
  void aJobThatIsNotInTheClusterFailsTheCallNamingIt() throws Exception {
    TestProvider.CLUSTER.set(Map.of("worker", List.of(server("w0"))));
    assertThatThrownBy(() -> ask(channel("cluster://grpctest/chief")))
        .isInstanceOf(StatusRuntimeException.class)
        .satisfies(e -> assertThat(((StatusRuntimeException) e).getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE))
        .hasMessageContaining("Job 'chief'").hasMessageContaining("its jobs are: worker");
  }

  @Test
  void aSourceOfTruthThatFailsIsUnavailableWithItsMessage() {
    TestProvider.FAILURE.set("grpctest: ListMembers failed with HTTP 503");
    assertThatThrownBy(() -> ask(channel("cluster://grpctest/worker")))
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("UNAVAILABLE").hasMessageContaining("HTTP 503");
  }

  @Test
  void targetsNameAProviderAJobAndProperties() {
    ClusterTarget t = ClusterTarget.parse(URI.create("cluster://aws/ps?clusterresolver.aws.asg=trainers"));
    assertThat(t.provider()).isEqualTo("aws");
    assertThat(t.job()).isEqualTo("ps");
    assertThat(t.properties()).containsExactly(Map.entry("clusterresolver.aws.asg", "trainers"));
    assertThat(ClusterTarget.parse(URI.create("cluster:///worker")).provider()).isNull();
    assertThat(ClusterTarget.parse(URI.create("dns:///host:1"))).isNull();
    assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://aws/")))
        .hasMessageContaining("names no job");
    assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://aws/ps?SECRETTOKEN")))
        .hasMessageNotContaining("SECRETTOKEN");
  }

  private static final String SECRET = "s3cr3t+base64/Zz==";

  @Test
  void aResolveThatFailsNeverShowsTheTargetsSecretInTheStatus() {
    String target = "cluster://grpctest/worker?clusterresolver.grpctest.token=" + SECRET.replace("/", "%2F");
    TestProvider.CRASH.set(new IllegalStateException("provider bug"));
    assertThatThrownBy(() -> ask(channel(target)))
        .isInstanceOf(StatusRuntimeException.class)
        .hasMessageContaining("INTERNAL").hasMessageContaining("provider bug")
        .hasMessageContaining("cluster://grpctest/worker?clusterresolver.grpctest.token=***")
        .satisfies(e -> assertThat(String.valueOf(((StatusRuntimeException) e).getStatus())).doesNotContain("s3cr3t"))
        .hasMessageNotContaining("s3cr3t");
    TestProvider.CRASH.set(null);
    TestProvider.FAILURE.set("grpctest: ListMembers failed with HTTP 503");
    assertThatThrownBy(() -> ask(channel(target + "&clusterresolver.grpctest.unknown-key=" + SECRET)))
        .isInstanceOf(StatusRuntimeException.class).hasMessageNotContaining("s3cr3t");
  }

  @Test
  void aPlusInAQueryValueStaysAPlusAndPercentEscapesAreDecoded() {
    // RFC 3986 (and gRPC's own target parsing) reads '+' in a query as '+'; only HTML forms mean a space.
    ClusterTarget t = ClusterTarget.parse(URI.create(
        "cluster://aws/ps?clusterresolver.aws.secret-key=ab+cd%2Bef%2Fg%3D%3D&clusterresolver.aws.region=%C3%A9u"));
    assertThat(t.properties()).containsEntry("clusterresolver.aws.secret-key", "ab+cd+ef/g==")
        .containsEntry("clusterresolver.aws.region", "\u00e9u");
  }

  @Test
  void aDetectedProviderKeepsTheTargetsProperties() throws Exception {
    TestProvider.CLUSTER.set(Map.of("worker", List.of(server("w0"))));
    TestProvider.TOKENS.clear();
    // No provider in the target: detection must see clusterresolver.grpctest.here and the resolver the token.
    assertThat(ask(channel("cluster:///worker?clusterresolver.grpctest.here=yes&clusterresolver.grpctest.token=a+b")))
        .isEqualTo("w0");
    assertThat(TestProvider.TOKENS).containsExactly("a+b");
  }

  @Test
  void refreshIntervalsBelowTheFloorAreRejectedNamingTheOption() {
    for (String option : List.of("refresh-interval", "min-refresh-interval")) {
      assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://aws/ps?" + option + "=1ms")))
          .isInstanceOf(io.clusterresolver.ConfigurationException.class)
          .hasMessageStartingWith(option + " (in the gRPC target's query): '1ms' is below the floor of 1000ms");
      assertThat(ClusterTarget.parse(URI.create("cluster://aws/ps?" + option + "=1s")))
          .extracting(option.equals("refresh-interval") ? ClusterTarget::refreshInterval : ClusterTarget::minRefreshInterval)
          .isEqualTo(java.time.Duration.ofSeconds(1));
    }
    assertThat(ClusterTarget.parse(URI.create("cluster://aws/ps?refresh-interval=0s")).refreshInterval()).isZero();
    assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://aws/ps?min-refresh-interval=0s")))
        .hasMessageContaining("below the floor");
  }
}
