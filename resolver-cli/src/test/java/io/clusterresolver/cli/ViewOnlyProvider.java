package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A provider for the command's tests that never applies, reads no properties and does not know
 * which task this process is: {@code worker} = {@code [w0:1000, w1:1000]} and the sparse
 * {@code evaluator} = {@code {3: e3:1000}}.
 */
public final class ViewOnlyProvider implements ClusterResolverProvider {

  @Override
  public String name() {
    return "viewonly";
  }

  @Override
  public int priority() {
    return 10;
  }

  @Override
  public boolean isAvailable(ResolverContext context) {
    return false;
  }

  @Override
  public List<ConfigProperty<?>> properties() {
    return List.of();
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    return new ClusterResolver() {
      @Override
      public ClusterSpec clusterSpec() {
        return ClusterSpec.builder().addJob("worker", List.of("w0:1000", "w1:1000"))
            .addTask("evaluator", 3, "e3:1000").build();
      }

      @Override
      public String master(String taskType, Integer taskId, String rpcLayer) {
        return "";
      }

      @Override
      public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
        return Map.of();
      }

      @Override
      public Optional<String> taskType() {
        return Optional.empty();
      }

      @Override
      public OptionalInt taskId() {
        return OptionalInt.empty();
      }

      @Override
      public Optional<String> rpcLayer() {
        return Optional.empty();
      }
    };
  }
}
