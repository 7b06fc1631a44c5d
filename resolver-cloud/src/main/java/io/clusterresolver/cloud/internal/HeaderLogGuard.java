package io.clusterresolver.cloud.internal;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps credentials that travel over HTTP out of the logs, whatever level a user turns logging up
 * to. Two loggers write them:
 *
 * <ul>
 *   <li>the JDK's {@code HttpURLConnection} logs every request header at {@code FINE} — bearer tokens,
 *       AWS's {@code X-Amz-Security-Token} and the access key id in {@code Authorization}, metadata
 *       server tokens — under the AWS SDK's {@code UrlConnectionHttpClient} and Google's
 *       {@code NetHttpTransport} alike;
 *   <li>Google's HTTP client logs response bodies at {@code CONFIG}, the OAuth token endpoint's
 *       {@code access_token} among them.
 * </ul>
 *
 * So both loggers are held at {@code INFO} or coarser. Every cloud provider calls this before its
 * first request.
 *
 * <p>Not public API: {@code io.clusterresolver.cloud.internal} may change in any release.
 */
public final class HeaderLogGuard {

  /** The JDK's logger of {@code HttpURLConnection} request and response headers. */
  public static final String JDK_HEADERS = "sun.net.www.protocol.http.HttpURLConnection";

  /** Google's HTTP client's logger of requests and response bodies. */
  public static final String GOOGLE_HTTP = "com.google.api.client.http.HttpTransport";

  /** Held strongly: java.util.logging keeps loggers only weakly, and a new one would forget the level. */
  private static final List<Logger> GUARDED = List.of(Logger.getLogger(JDK_HEADERS), Logger.getLogger(GOOGLE_HTTP));

  private HeaderLogGuard() {}

  /** Raises each guarded logger to {@code INFO} when it (or what it inherits) is finer. */
  public static void keepHeadersOutOfLogs() {
    for (Logger logger : GUARDED) {
      synchronized (logger) {
        Level level = logger.getLevel();
        if (level == null || level.intValue() < Level.INFO.intValue()) {
          logger.setLevel(Level.INFO);
        }
      }
    }
  }
}
