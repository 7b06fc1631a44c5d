package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LogCaptureTest {

  private static final Logger LOG = Logger.getLogger("io.clusterresolver.testkit.LogCaptureTest");

  @Test
  void messagesAtALevelLeaveOutTheRecordsBelowIt() {
    try (LogCapture logs = new LogCapture()) {
      LOG.warning("a warning");
      LOG.severe("an error");
      LOG.info("an info");

      assertThat(logs.messages(Level.WARNING)).containsExactly("a warning", "an error");
      assertThat(logs.messages(Level.SEVERE)).containsExactly("an error");
      assertThat(logs.messages()).containsExactly("a warning", "an error", "an info");
    }
  }

  @Test
  void recordsKeepTheirParametersSoThatASecretInThemIsSeen() {
    try (LogCapture logs = new LogCapture()) {
      LOG.log(Level.WARNING, "token {0} refused", "s3cr3t-value");

      assertThat(logs.records()).extracting(LogRecord::getParameters)
          .anySatisfy(parameters -> assertThat(parameters).containsExactly("s3cr3t-value"));
    }
  }

  @Test
  void nothingIsCapturedAfterClose() {
    LogCapture logs = new LogCapture();
    logs.close();
    LOG.warning("after close");

    assertThat(logs.messages()).isEmpty();
  }
}
