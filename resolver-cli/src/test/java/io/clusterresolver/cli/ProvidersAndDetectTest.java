package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvidersAndDetectTest {

  @Test
  void providersListsEachProviderWithPriorityAvailabilityAndProperties() {
    CliRun run = CliRun.run(Map.of("FIXTURE_CLUSTER", "1"), "providers");
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.out).contains("fixture  priority 500  applies here", "viewonly  priority 10  does not apply here",
        "KEY", "TYPE", "DEFAULT", "REQUIRED", "SECRET", "DESCRIPTION");
    assertThat(run.out).containsPattern("clusterresolver\\.fixture\\.port +int +2222 +no +no +First port on each host\\.");
    assertThat(run.out).containsPattern("clusterresolver\\.fixture\\.hosts +list +- +yes +no");
    // Providers are listed in detection order: higher priority first.
    assertThat(run.out.indexOf("fixture  priority")).isLessThan(run.out.indexOf("viewonly  priority"));
  }

  @Test
  void providersNeverShowsASecretDefault() {
    CliRun run = CliRun.run(Map.of(), "providers");
    assertThat(run.out).contains("clusterresolver.fixture.api-token").doesNotContain("default-token-value");
    CliRun markdown = CliRun.run(Map.of(), "providers", "--markdown");
    assertThat(markdown.out).contains("### `fixture`", "| `clusterresolver.fixture.api-token` | `CLUSTERRESOLVER_FIXTURE_API_TOKEN` | string | (secret) |")
        .doesNotContain("default-token-value");
  }

  @Test
  void availabilityFollowsTheEnvironment() {
    assertThat(CliRun.run(Map.of(), "providers").out).contains("fixture  priority 500  does not apply here");
  }

  @Test
  void helpListsEverySubcommand() {
    CliRun run = CliRun.run(Map.of(), "--help");
    assertThat(run.code).isZero();
    for (String name : ClusterResolverCommand.SUBCOMMAND_NAMES) {
      assertThat(run.out).containsPattern("(?m)^  " + name + " ");
    }
    assertThat(run.out).contains("Exit codes:");
    assertThat(CliRun.run(Map.of(), "help", "resolve").out).contains("--format");
  }

  @Test
  void eachSubcommandIsRegisteredUnderItsOwnName() {
    // Each class under the name its model gives it (annotated, or resolve's built in code), in the list's order.
    picocli.CommandLine all = ClusterResolverCommand.commandLine(Map.of(), new java.io.PrintWriter(
        java.io.Writer.nullWriter()), new java.io.PrintWriter(java.io.Writer.nullWriter()));
    List<String> names = new java.util.ArrayList<>();
    List<Class<?>> classes = new java.util.ArrayList<>();
    all.getSubcommands().forEach((name, command) -> {
      if (!name.equals("help")) {
        names.add(command.getCommandSpec().name());
        classes.add(command.getCommandSpec().userObject().getClass());
      }
    });
    assertThat(ClusterResolverCommand.SUBCOMMAND_NAMES).isEqualTo(names);
    assertThat(ClusterResolverCommand.SUBCOMMANDS).isEqualTo(classes);
    for (String name : names) {
      picocli.CommandLine alone = ClusterResolverCommand.commandLine(Map.of(), new java.io.PrintWriter(
          java.io.Writer.nullWriter()), new java.io.PrintWriter(java.io.Writer.nullWriter()), name, "--help");
      assertThat(alone.getSubcommands().keySet()).containsExactly(name);
    }
  }

  @Test
  void detectNamesTheHighestPriorityProviderThatApplies() {
    CliRun run = CliRun.run(Map.of("FIXTURE_CLUSTER", "1"), "detect");
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.out).isEqualTo("fixture" + System.lineSeparator());
    assertThat(run.err).isEmpty();
  }

  @Test
  void detectVerboseExplainsOnStderr() {
    CliRun run = CliRun.run(Map.of("FIXTURE_CLUSTER", "1"), "detect", "--verbose");
    assertThat(run.out).isEqualTo("fixture" + System.lineSeparator());
    assertThat(run.err).contains("fixture", "applies");
  }

  @Test
  void detectDoesNotPickAProviderThatDoesNotApply() {
    CliRun run = CliRun.run(Map.of(), "detect");
    assertThat(run.out).isEqualTo("local" + System.lineSeparator());
  }
}
