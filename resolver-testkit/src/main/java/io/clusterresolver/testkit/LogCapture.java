package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures the {@code java.util.logging} records (where {@code System.Logger} goes by default) of a
 * test, at every level, until closed:
 *
 * <pre>{@code
 * try (LogCapture logs = new LogCapture()) {
 *   resolver.clusterSpec();
 *   assertThat(logs.messages()).anyMatch(m -> m.contains("left out"));
 * }
 * }</pre>
 */
public final class LogCapture implements AutoCloseable {

  private final List<LogRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  /** Starts capturing on the root logger. */
  public LogCapture() {
    handler.setLevel(Level.ALL);
    Logger.getLogger("").addHandler(handler);
  }

  /** The messages captured so far, at every level, oldest first. */
  public List<String> messages() {
    return messages(Level.ALL);
  }

  /** The messages of the records at {@code atLeast} or above, oldest first. */
  public List<String> messages(Level atLeast) {
    synchronized (records) {
      List<String> out = new ArrayList<>();
      for (LogRecord r : records) {
        if (r.getLevel().intValue() >= atLeast.intValue()) {
          out.add(r.getMessage());
        }
      }
      return out;
    }
  }

  /** The records captured so far, oldest first (their parameters too, for a check that no secret is logged). */
  List<LogRecord> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  /** Stops capturing. */
  @Override
  public void close() {
    Logger.getLogger("").removeHandler(handler);
  }
}
