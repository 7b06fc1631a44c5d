package io.clusterresolver.cloud.internal;

import java.util.Map;
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
 *       {@code access_token} among them;
 *   <li>the JDK's {@code java.net.http.HttpClient} (under fabric8, for kubernetes) logs every request
 *       header, {@code Authorization: Bearer} included, at {@code INFO} when a user starts the JVM
 *       with {@code -Djdk.httpclient.HttpClient.log=headers} (or {@code all}).
 * </ul>
 *
 * So the first two loggers are held at {@code INFO} or coarser, the JDK client's at {@code WARNING}
 * (it logs nothing else at {@code INFO}). Every cloud provider calls this before its
 * first request.
 *
 * <p>Not public API: {@code io.clusterresolver.cloud.internal} may change in any release.
 */
public final class HeaderLogGuard {

  /** The JDK's logger of {@code HttpURLConnection} request and response headers. */
  public static final String JDK_HEADERS = "sun.net.www.protocol.http.HttpURLConnection";

  /** Google's HTTP client's logger of requests and response bodies. */
  public static final String GOOGLE_HTTP = "com.google.api.client.http.HttpTransport";

  /** The JDK {@code java.net.http.HttpClient}'s logger ({@code jdk.httpclient.HttpClient.log}). */
  public static final String JDK_HTTP_CLIENT = "jdk.httpclient.HttpClient";

  /** Held strongly: java.util.logging keeps loggers only weakly, and a new one would forget the level. */
  private static final Map<Logger, Level> GUARDED = Map.of(
      Logger.getLogger(JDK_HEADERS), Level.INFO,
      Logger.getLogger(GOOGLE_HTTP), Level.INFO,
      Logger.getLogger(JDK_HTTP_CLIENT), Level.WARNING);

  private HeaderLogGuard() {}

  /** Raises each guarded logger to its floor when it (or what it inherits) is finer. */
  public static void keepHeadersOutOfLogs() {
    GUARDED.forEach((logger, floor) -> {
      synchronized (logger) {
        Level level = logger.getLevel();
        if (level == null || level.intValue() < floor.intValue()) {
          logger.setLevel(floor);
        }
      }
    });
  }
}
