package io.clusterresolver.aws;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps request headers out of the logs. The SDK's {@code UrlConnectionHttpClient} runs on the JDK's
 * {@code HttpURLConnection}, which logs every request header at {@code FINE} — among them
 * {@code X-Amz-Security-Token} (the session token), the {@code Authorization} header with the access
 * key id and IMDS's {@code X-aws-ec2-metadata-token}. So that logger is held at {@code INFO} or
 * coarser, whatever the root level (issue 9: no secret at any log level).
 */
final class HeaderLogGuard {

  /** The JDK's logger of {@code HttpURLConnection} request and response headers. */
  static final String LOGGER = "sun.net.www.protocol.http.HttpURLConnection";

  /** Held strongly: java.util.logging keeps loggers only weakly, and a new one would forget the level. */
  private static final Logger HEADERS = Logger.getLogger(LOGGER);

  private HeaderLogGuard() {}

  /** Raises the header logger to {@code INFO} when it (or what it inherits) is finer. */
  static void keepHeadersOutOfLogs() {
    synchronized (HEADERS) {
      Level level = HEADERS.getLevel();
      if (level == null || level.intValue() < Level.INFO.intValue()) {
        HEADERS.setLevel(Level.INFO);
      }
    }
  }
}
