package io.clusterresolver.cloud.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The WARNINGs (and worse) {@link ListingRelay} logs while attached: what a host says when it lists the cloud. */
final class WarningCapture extends Handler {

  private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
  private final Logger relayLog = Logger.getLogger(ListingRelay.class.getName());

  WarningCapture attach() {
    relayLog.addHandler(this);
    return this;
  }

  void detach() {
    relayLog.removeHandler(this);
  }

  /** What was captured, live. */
  List<LogRecord> warnings() {
    return warnings;
  }

  @Override
  public void publish(LogRecord record) {
    if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
      warnings.add(record);
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
