package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class CommandLoggingTest {

  @Test
  void aRecordIsOneLineWithTheLevelAndTheFilledInMessage() {
    LogRecord record = new LogRecord(Level.WARNING, "gce: {0} members without an {1} address left out");
    record.setParameters(new Object[] {2, "external IPv4"});

    assertThat(new CommandLogging.OneLine().format(record)).isEqualTo(
        "cluster-resolver: WARNING: gce: 2 members without an external IPv4 address left out"
            + System.lineSeparator());
  }

  @Test
  void aRecordsExceptionFollowsWithItsStackTrace() {
    LogRecord record = new LogRecord(Level.INFO, "relay stopped");
    record.setThrown(new IllegalStateException("socket closed"));

    String text = new CommandLogging.OneLine().format(record);

    assertThat(text).startsWith("cluster-resolver: INFO: relay stopped" + System.lineSeparator()
        + "java.lang.IllegalStateException: socket closed" + System.lineSeparator());
    assertThat(text).contains("\tat " + CommandLoggingTest.class.getName() + ".aRecordsExceptionFollowsWithItsStackTrace(");
  }

  @Test
  void aLoggingConfigurationTheUserNamedIsKept() {
    Properties none = new Properties();
    CommandLogging.configure(none);
    assertThat(none.getProperty("java.util.logging.config.class")).isEqualTo(CommandLogging.class.getName());

    Properties file = new Properties();
    file.setProperty("java.util.logging.config.file", "/etc/mine.properties");
    CommandLogging.configure(file);
    assertThat(file.getProperty("java.util.logging.config.class")).isNull();

    Properties ownClass = new Properties();
    ownClass.setProperty("java.util.logging.config.class", "com.example.Logging");
    CommandLogging.configure(ownClass);
    assertThat(ownClass.getProperty("java.util.logging.config.class")).isEqualTo("com.example.Logging");
  }

  /** In a JVM of its own, as the command runs: LogManager loads the class, and the record comes out as one line. */
  @Test
  void aProcessLogsOneLineToStandardErrorAndNothingBelowInfo() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
        LoggingProcess.class.getName()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(err).isZero();
    assertThat(err.lines()).isEqualTo(List.of("cluster-resolver: WARNING: azure: 3 members left out"));
  }

  /** The JVM of the test above: configures logging as {@link Main} does, then logs through {@link System.Logger}. */
  static final class LoggingProcess {
    public static void main(String[] args) {
      CommandLogging.configure(System.getProperties());
      System.Logger logger = System.getLogger("io.clusterresolver.azure.AzureMemberSource");
      logger.log(System.Logger.Level.DEBUG, "not shown: below INFO");
      logger.log(System.Logger.Level.WARNING, "azure: {0} members left out", 3);
    }
  }
}
