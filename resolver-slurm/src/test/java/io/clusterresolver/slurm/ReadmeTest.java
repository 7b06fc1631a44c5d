package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.spi.PropertyTable;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's properties table is the provider's own declarations. */
class ReadmeTest {

  @Test
  void readmeListsEveryDeclaredProperty() throws Exception {
    SlurmClusterResolverProvider provider = new SlurmClusterResolverProvider();
    String expected = PropertyTable.markdown(provider.name(), provider.properties());
    Path path = Path.of("README.md");
    String readme = Files.readString(path);
    if (Boolean.getBoolean("update.readme")) { // mvn ... -Dupdate.readme=true rewrites the table
      readme = readme.replace(PropertyTable.extract(readme).strip(), "").replace(
          PropertyTable.BEGIN, PropertyTable.BEGIN + "\n" + expected.strip());
      Files.writeString(path, readme);
    }
    assertThat(PropertyTable.extract(readme))
        .as("README.md table is out of date; replace it with:%n%s", expected)
        .isEqualTo(expected);
  }
}
