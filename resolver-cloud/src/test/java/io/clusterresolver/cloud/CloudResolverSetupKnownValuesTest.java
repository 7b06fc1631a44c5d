package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A list property checked against the cloud's own values: the values kept, every other one a problem. */
class CloudResolverSetupKnownValuesTest {

  private static final ConfigProperty<List<String>> STATES = ConfigProperty.list("states").defaultValue("RUNNING")
      .build();
  private static final ConfigProperty<String> TASKS_PER_VM = CloudProperties.tasksPerMember("tasks-per-vm");
  private static final List<String> STATUSES = List.of("RUNNING", "STOPPED", "TERMINATED");

  private static CloudResolverSetup setup(String states) {
    List<ConfigProperty<?>> declared = new java.util.ArrayList<>(List.of(STATES));
    declared.addAll(CloudProperties.layout(TASKS_PER_VM));
    declared.addAll(CloudProperties.sharing());
    ResolverConfig config = ResolverConfig.resolve("mycloud", declared,
        PropertySources.withEnvironment(Map.of("clusterresolver.mycloud.states", states), Map.of()));
    return CloudResolverSetup.start(config, declared, TASKS_PER_VM);
  }

  @Test
  void knownValuesAreKeptAsSpelledInTheOrderGiven() {
    CloudResolverSetup setup = setup(" stopped ,running");
    assertThat(setup.knownValues(STATES, STATUSES, "an instance status", s -> s.trim().toUpperCase(Locale.ROOT)))
        .containsExactly("STOPPED", "RUNNING");
    assertThat(setup.problems()).isEmpty();
  }

  @Test
  void everyUnknownValueIsOneProblemNamingTheKeyTheValueAndTheCloudsValues() {
    CloudResolverSetup setup = setup("running,asleep,gone");
    assertThat(setup.knownValues(STATES, STATUSES, "an instance status", s -> s)).isEmpty();
    assertThat(setup.problems()).containsExactly(
        "clusterresolver.mycloud.states: 'running' is not an instance status (RUNNING, STOPPED, TERMINATED)",
        "clusterresolver.mycloud.states: 'asleep' is not an instance status (RUNNING, STOPPED, TERMINATED)",
        "clusterresolver.mycloud.states: 'gone' is not an instance status (RUNNING, STOPPED, TERMINATED)");
    assertThatThrownBy(setup::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'asleep' is not an instance status");
  }
}
