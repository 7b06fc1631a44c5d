package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A provider for the command's tests, registered only on the test classpath: a cluster of
 * {@code hosts} with {@code tasks-per-host} tasks each, the first task {@code chief} and the rest
 * {@code worker}. It applies when the environment has {@code FIXTURE_CLUSTER=1}, and its source of
 * truth "fails" when {@code fail=true}.
 */
public final class FixtureProvider implements ClusterResolverProvider {

  @Override
  public String name() {
    return "fixture";
  }

  @Override
  public int priority() {
    return 500;
  }

  @Override
  public boolean isAvailable(ResolverContext context) {
    return context.getenv("FIXTURE_CLUSTER").filter("1"::equals).isPresent();
  }

  static final ConfigProperty<List<String>> HOSTS =
      ConfigProperty.list("hosts").required().description("The hosts, in order.").build();
  static final ConfigProperty<Integer> PORT =
      ConfigProperty.integer("port").defaultValue("2222").range(1, 65535).description("First port on each host.").build();
  static final ConfigProperty<Integer> TASKS_PER_HOST =
      ConfigProperty.integer("tasks-per-host").defaultValue("1").range(1, 64).description("Tasks on each host.").build();
  static final ConfigProperty<String> TASK_TYPE = ConfigProperty.string("task-type").description("This process's job.").build();
  static final ConfigProperty<Integer> TASK_ID =
      ConfigProperty.integer("task-id").range(0, Integer.MAX_VALUE).description("This process's index.").build();
  static final ConfigProperty<String> RPC_LAYER =
      ConfigProperty.string("rpc-layer").defaultValue("grpc").description("Scheme.").build();
  static final ConfigProperty<Integer> GPUS =
      ConfigProperty.integer("gpus").defaultValue("0").range(0, 16).description("GPUs per task.").build();
  static final ConfigProperty<List<String>> VISIBLE_DEVICES =
      ConfigProperty.list("visible-devices").description("Device ids of this task.").build();
  static final ConfigProperty<String> API_TOKEN = ConfigProperty.string("api-token").defaultValue("default-token-value")
      .secret().description("A credential.").build();
  static final ConfigProperty<Boolean> FAIL =
      ConfigProperty.bool("fail").defaultValue("false").description("Make the source of truth fail.").build();
  static final ConfigProperty<Boolean> BUG =
      ConfigProperty.bool("bug").defaultValue("false").description("Make the provider throw a NullPointerException.").build();

  @Override
  public List<ConfigProperty<?>> properties() {
    return List.of(HOSTS, PORT, TASKS_PER_HOST, TASK_TYPE, TASK_ID, RPC_LAYER, GPUS, VISIBLE_DEVICES, API_TOKEN, FAIL,
        BUG);
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    List<String> hosts = config.get(HOSTS);
    int port = config.get(PORT);
    int perHost = config.get(TASKS_PER_HOST);
    boolean fail = config.get(FAIL);
    boolean bug = config.get(BUG);
    int gpus = config.get(GPUS);
    Optional<String> taskType = config.find(TASK_TYPE);
    OptionalInt taskId = config.find(TASK_ID).map(OptionalInt::of).orElse(OptionalInt.empty());
    Optional<String> rpcLayer = config.find(RPC_LAYER).filter(s -> !s.isEmpty());
    Optional<List<String>> devices = config.isSet(VISIBLE_DEVICES) ? Optional.of(config.get(VISIBLE_DEVICES)) : Optional.empty();
    return new ClusterResolver() {
      @Override
      public ClusterSpec clusterSpec() {
        if (bug) {
          Object missing = null;
          missing.hashCode(); // a bug in a provider: must surface as exit 1 with a stack trace
        }
        if (fail) {
          throw new ClusterResolverException("fixture: DescribeInstances failed with HTTP 503;"
              + " check clusterresolver.fixture.hosts");
        }
        List<String> workers = new ArrayList<>();
        String chief = null;
        for (String host : hosts) {
          for (int i = 0; i < perHost; i++) {
            String address = host + ":" + (port + i);
            if (chief == null) {
              chief = address;
            } else {
              workers.add(address);
            }
          }
        }
        ClusterSpec.Builder builder = ClusterSpec.builder().addJob("chief", List.of(chief));
        if (!workers.isEmpty()) {
          builder.addJob("worker", workers);
        }
        return builder.build();
      }

      @Override
      public String master(String type, Integer id, String layer) {
        String address = clusterSpec().taskAddress(type == null ? "chief" : type, id == null ? 0 : id);
        String scheme = layer != null ? layer : rpcLayer.orElse(null);
        return scheme == null ? address : scheme + "://" + address;
      }

      @Override
      public Map<String, Integer> numAccelerators(String type, Integer id) {
        return gpus == 0 ? Map.of() : Map.of("GPU", gpus);
      }

      @Override
      public String environment() {
        return "fixture";
      }

      @Override
      public Optional<String> taskType() {
        return taskType;
      }

      @Override
      public OptionalInt taskId() {
        return taskId;
      }

      @Override
      public Optional<String> rpcLayer() {
        return rpcLayer;
      }

      @Override
      public Optional<List<String>> visibleDevices() {
        return devices;
      }
    };
  }
}
