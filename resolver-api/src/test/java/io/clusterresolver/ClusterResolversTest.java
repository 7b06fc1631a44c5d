package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Public, with public nested providers, so ServiceLoader can instantiate them. */
public class ClusterResolversTest {

  @TempDir
  Path services;

  private ClassLoader loaderWith(Class<?>... providers) throws Exception {
    Path file = services.resolve("META-INF/services/" + ClusterResolverProvider.class.getName());
    Files.createDirectories(file.getParent());
    Files.writeString(file, List.of(providers).stream().map(Class::getName).collect(Collectors.joining("\n")));
    return new URLClassLoader(new URL[] {services.toUri().toURL()}, getClass().getClassLoader());
  }

  @Test
  void findsTheLocalProviderWithServiceLoader() {
    assertThat(ClusterResolvers.providers()).extracting(ClusterResolverProvider::name).contains("local");
    assertThat(ClusterResolvers.provider("local").priority()).isEqualTo(Integer.MIN_VALUE);
  }

  @Test
  void ordersByPriorityThenName() throws Exception {
    List<ClusterResolverProvider> providers = ClusterResolvers.providers(loaderWith(High.class, Named.class));
    assertThat(providers).extracting(ClusterResolverProvider::name).containsSubsequence("high", "named", "local");
  }

  @Test
  void twoProvidersWithOneNameFailNamingBothClasses() throws Exception {
    ClassLoader loader = loaderWith(Named.class, SameName.class);
    assertThatThrownBy(() -> ClusterResolvers.providers(loader))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'named'")
        .hasMessageContaining(Named.class.getName())
        .hasMessageContaining(SameName.class.getName());
  }

  @Test
  void aProviderThatFailsToLoadIsSkipped() throws Exception {
    List<ClusterResolverProvider> providers =
        ClusterResolvers.providers(loaderWith(Throwing.class, Named.class, NameThrows.class));
    assertThat(providers).extracting(ClusterResolverProvider::name).containsExactly("named", "local");
  }

  @Test
  void unknownProviderListsTheKnownOnes() {
    assertThatThrownBy(() -> ClusterResolvers.create("nope", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'nope'").hasMessageContaining("local")
        .hasMessageNotContaining("Did you mean");
    assertThatThrownBy(() -> ClusterResolvers.create("locla", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Unknown cluster resolver provider 'locla'. Did you mean 'local'?");
  }

  @Test
  void detectFallsBackToLocal() {
    PropertySources sources = PropertySources.withEnvironment(Map.of(), Map.of("HOSTNAME", "node7"));
    ClusterResolver resolver = ClusterResolvers.detect(sources);
    assertThat(resolver.clusterSpec()).isEqualTo(ClusterSpec.of(Map.of("worker", List.of("node7:8888"))));
    assertThat(ClusterResolvers.detectProvider(ResolverContext.of(sources)).name()).isEqualTo("local");
    assertThat(ClusterResolvers.detect()).isNotNull();
  }

  @Test
  void anAvailabilityCheckThatThrowsCountsAsUnavailable() {
    assertThat(ClusterResolvers.isAvailable(new High() {
      @Override
      public boolean isAvailable(ResolverContext context) {
        throw new IllegalStateException("boom");
      }
    }, ResolverContext.system())).isFalse();
  }

  @Test
  void createValidatesConfigurationAndPassesTheEnvironment() {
    assertThatThrownBy(() -> ClusterResolvers.create("local", Map.of("clusterresolver.local.prot", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("did you mean clusterresolver.local.port");
    ClusterResolver local = ClusterResolvers.create("local",
        Map.of("clusterresolver.local.port", "9000"), Map.of("HOSTNAME", "h1"));
    assertThat(local.master("worker", 0, null)).isEqualTo("grpc://h1:9000");
  }

  /** A well-behaved provider with a high priority. */
  public static class High implements ClusterResolverProvider {
    @Override
    public String name() {
      return "high";
    }

    @Override
    public int priority() {
      return 1000;
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
      return SimpleClusterResolver.of(ClusterSpec.empty());
    }
  }

  /** A provider named "named". */
  public static class Named extends High {
    @Override
    public String name() {
      return "named";
    }

    @Override
    public int priority() {
      return 5;
    }
  }

  /** Another class claiming the name "named". */
  public static class SameName extends Named {}

  /** A provider whose constructor throws. */
  public static class Throwing extends High {
    public Throwing() {
      throw new IllegalStateException("cannot start");
    }
  }

  /** A provider whose name() throws. */
  public static class NameThrows extends High {
    @Override
    public String name() {
      throw new UnsupportedOperationException("no name");
    }
  }
}
