package io.clusterresolver.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.logging.Formatter;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;

/**
 * java.util.logging's configuration for the command: what the JDK's default configuration sets (the root at
 * {@code INFO}, one {@code ConsoleHandler} on standard error), but each record on one line,
 * {@code cluster-resolver: WARNING: message}, like the command's own errors, with its exception's stack
 * trace when it has one.
 *
 * <p>The JDK's {@code SimpleFormatter} writes the time and the calling method first. For that, the first
 * record of a process reads the time-zone database and the locale's month names and walks the stack to find
 * its caller: about 120 classes and 65 ms of CPU in a cold gce resolve that logs one warning
 * (docs/benchmarks.md, issue 23), to print what a command line user does not need.
 *
 * <p>{@link Main} names this class in {@code java.util.logging.config.class}, so it takes effect only if
 * something logs; a user's own {@code java.util.logging.config.file} or {@code config.class} is kept.
 */
public final class CommandLogging {

  /** The configuration, in {@code logging.properties} form. */
  static final String CONFIGURATION = String.join("\n",
      "handlers=java.util.logging.ConsoleHandler",
      ".level=INFO",
      "java.util.logging.ConsoleHandler.level=INFO",
      "java.util.logging.ConsoleHandler.encoding=UTF-8",
      "java.util.logging.ConsoleHandler.formatter=" + OneLine.class.getName(),
      "");

  /**
   * Called by {@link LogManager} when it starts, as {@code java.util.logging.config.class} asks.
   *
   * @throws UncheckedIOException never in practice: the configuration is read from memory
   */
  public CommandLogging() {
    try {
      LogManager.getLogManager().readConfiguration(
          new ByteArrayInputStream(CONFIGURATION.getBytes(StandardCharsets.ISO_8859_1)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sets {@code java.util.logging.config.class} to this class in {@code system}, unless a logging configuration
   * is already named there.
   */
  static void configure(Properties system) {
    if (system.getProperty("java.util.logging.config.file") == null
        && system.getProperty("java.util.logging.config.class") == null) {
      system.setProperty("java.util.logging.config.class", CommandLogging.class.getName());
    }
  }

  /** {@code cluster-resolver: LEVEL: message}, then the stack trace of the record's exception, if any. */
  public static final class OneLine extends Formatter {

    /** A public zero-argument constructor, for {@link LogManager}. */
    public OneLine() {}

    @Override
    public String format(LogRecord record) {
      StringBuilder line = new StringBuilder("cluster-resolver: ")
          .append(record.getLevel().getName()).append(": ").append(formatMessage(record))
          .append(System.lineSeparator());
      if (record.getThrown() != null) {
        StringWriter trace = new StringWriter();
        try (PrintWriter out = new PrintWriter(trace)) {
          record.getThrown().printStackTrace(out);
        }
        line.append(trace);
      }
      return line.toString();
    }
  }
}
