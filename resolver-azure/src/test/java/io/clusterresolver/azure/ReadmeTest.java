package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.internal.PropertyTable;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's properties table is the provider's own declarations. */
class ReadmeTest {

  @Test
  void readmeListsEveryDeclaredProperty() throws Exception {
    AzureClusterResolverProvider provider = new AzureClusterResolverProvider();
    assertThat(PropertyTable.verifyReadme(
        Path.of("README.md"), provider.name(), provider.properties(), Boolean.getBoolean("update.readme")))
        .isEmpty();
  }
}
