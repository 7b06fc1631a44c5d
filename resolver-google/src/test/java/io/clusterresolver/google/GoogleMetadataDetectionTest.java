package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which metadata server a Google provider's detection asks, and when it asks none. */
class GoogleMetadataDetectionTest {

  private static ResolverContext context(Map<String, String> properties, Map<String, String> env) {
    return ResolverContext.of(PropertySources.of(properties, Map.of(), env, Map.of()));
  }

  private static Optional<URI> server(ResolverContext context, boolean orDefault) {
    return GoogleMetadata.forDetection("gce", context, orDefault).map(GoogleMetadata::base);
  }

  @Test
  void noNamedServerAsksNoneUnlessTheDefaultIsWanted() {
    assertThat(server(context(Map.of(), Map.of()), false)).isEmpty();
    assertThat(server(context(Map.of(), Map.of()), true)).contains(URI.create("http://metadata.google.internal"));
  }

  @Test
  void theProvidersMetadataEndpointComesBeforeGceMetadataHost() {
    ResolverContext both = context(Map.of("clusterresolver.gce.metadata-endpoint", "http://10.1.2.3:8080"),
        Map.of("GCE_METADATA_HOST", "169.254.169.254"));
    assertThat(server(both, false)).contains(URI.create("http://10.1.2.3:8080"));
    ResolverContext anotherProviders = context(Map.of("clusterresolver.tpu.metadata-endpoint", "http://10.1.2.3:8080"),
        Map.of());
    assertThat(server(anotherProviders, false)).as("tpu's property names no server for gce").isEmpty();
  }

  @Test
  void gceMetadataHostIsAHostAndPortAsGooglesLibrariesReadIt() {
    ResolverContext host = context(Map.of(), Map.of("GCE_METADATA_HOST", "127.0.0.1:8181"));
    assertThat(server(host, false)).contains(URI.create("http://127.0.0.1:8181"));
    assertThat(server(host, true)).contains(URI.create("http://127.0.0.1:8181"));
  }
}
