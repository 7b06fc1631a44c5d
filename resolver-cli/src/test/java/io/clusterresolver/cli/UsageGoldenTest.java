package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The help and usage errors of the commands, byte for byte against files taken from {@code main} before the
 * {@code resolve} command's model was built in code (issue 23): how picocli builds a model must not change what a
 * person reads. {@code -Dgolden.update=true} writes the files again from the code under test (only to add a case).
 */
class UsageGoldenTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "top-help          | --help",
      "top-version       | --version",
      "top-none          | ",
      "top-misspelt      | reslove",
      "top-unknown       | --bogus",
      "top-d-before      | -Dclusterresolver.aws.region=x resolve",
      "help-resolve      | help resolve",
      "resolve-help      | resolve --help",
      "resolve-h         | resolve -h",
      "resolve-version   | resolve -V",
      "resolve-unknown   | resolve --bogus",
      "resolve-unknown-v | resolve --access-key=SECRET",
      "resolve-extra     | resolve SECRET",
      "resolve-no-value  | resolve --format",
      "resolve-format    | resolve --format xml",
      "resolve-task-id   | resolve --task-id x",
      "resolve-min-tasks | resolve --min-tasks many",
      "resolve-d-no-eq   | resolve -D SECRET",
      "resolve-d-no-arg  | resolve -D",
      "resolve-config    | resolve --config",
      "resolve-twice     | resolve --provider a --provider b",
      "resolve-formt     | resolve --formt json",
      "resolve-provder   | resolve --provder gce",
      "resolve-task      | resolve --task 1",
      "resolve-help-more | resolve --help --bogus",
      "resolve-wait-bad  | resolve --wait",
      "serve-help        | serve --help",
      "serve-unknown     | serve --bogus",
      "serve-provder     | serve --provder gce",
      "connect-help      | connect --help",
      "connect-bad-index | connect --task-index x",
      "tf-server-help    | tf-server --help",
      "relay-help        | relay --help",
      "detect-help       | detect --help",
      "providers-help    | providers --help",
      "detect-confg      | detect --confg x",
  })
  void printsWhatMainPrinted(String name, String arguments) throws IOException {
    String[] args = arguments == null ? new String[0] : arguments.trim().split(" +");
    String actual = CliRun.run(Map.of(), args).toString();
    Path file = Path.of("src/test/resources/golden", name + ".txt");
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    try (InputStream expected = UsageGoldenTest.class.getResourceAsStream("/golden/" + name + ".txt")) {
      assertThat(expected).as("golden file %s", file).isNotNull();
      assertThat(actual).isEqualTo(new String(expected.readAllBytes(), StandardCharsets.UTF_8));
    }
  }
}
