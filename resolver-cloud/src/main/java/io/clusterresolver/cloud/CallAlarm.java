package io.clusterresolver.cloud;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Closes the connections of one call if its time is up before the answer's headers are in. The read timeout
 * bounds each read, and the bounded connection ({@link AnswerLimit#open}) the body, but a server that trickles
 * the status line and headers a byte at a time would hold the call past its deadline. One daemon thread of the
 * process closes the connection, which ends the blocked read; the caller asks {@link #rang()} and reports the
 * deadline passed. The thread is started by the first call and ends when idle.
 *
 * <pre>{@code
 * CallAlarm alarm = new CallAlarm(limit::open, millis);
 * try {
 *   HttpURLConnection http = alarm.open(url);
 *   int status = http.getResponseCode();
 *   alarm.close();                 // the headers are in: the bounded body does the rest
 *   if (alarm.rang()) { ... timed out ... }
 * } catch (IOException e) {
 *   alarm.close();
 *   throw alarm.rang() ? timedOut : e;
 * }
 * }</pre>
 */
public final class CallAlarm implements AutoCloseable {

  /** Opens one connection ({@code AnswerLimit::open}, for instance). */
  @FunctionalInterface
  public interface Opener {
    /** A connection to {@code url}, not yet connected. */
    HttpURLConnection open(URL url) throws IOException;
  }

  /** The timer, made on first use. */
  private static final class Timer {
    static final ScheduledThreadPoolExecutor TIMER = timer();

    private static ScheduledThreadPoolExecutor timer() {
      ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, run -> {
        Thread t = new Thread(run, "cluster-resolver-call-deadline");
        t.setDaemon(true);
        return t;
      });
      timer.setRemoveOnCancelPolicy(true);
      timer.setKeepAliveTime(1, TimeUnit.SECONDS);
      timer.allowCoreThreadTimeOut(true);
      return timer;
    }
  }

  private final Opener open;
  private final long millis;
  private final List<HttpURLConnection> opened = new ArrayList<>();
  private ScheduledFuture<?> alarm;
  private boolean over;
  private boolean rang;

  /** Opens connections with {@code open}, and closes them {@code millis} after the first was opened. */
  public CallAlarm(Opener open, long millis) {
    this.open = open;
    this.millis = millis;
  }

  /**
   * Opens a connection of this call, to be closed at the alarm; the first one starts it.
   *
   * @throws IOException when the call's time is already up, or {@code open} fails
   */
  public HttpURLConnection open(URL url) throws IOException {
    HttpURLConnection connection = open.open(url);
    synchronized (this) {
      if (over) {
        throw new IOException("the call's time is up");
      }
      opened.add(connection);
      if (alarm == null) {
        alarm = Timer.TIMER.schedule(this::ring, millis, TimeUnit.MILLISECONDS);
      }
    }
    return connection;
  }

  private void ring() {
    List<HttpURLConnection> open;
    synchronized (this) {
      if (over) {
        return;
      }
      over = true;
      rang = true;
      open = List.copyOf(opened);
    }
    // Outside the lock: a connection that has its headers may read what is left of its body to be reused,
    // and the caller, told by rang(), must not wait for that.
    for (HttpURLConnection connection : open) {
      connection.disconnect();
    }
  }

  /** Whether the time ran out before the call was over (its connections were closed). */
  public synchronized boolean rang() {
    return rang;
  }

  /** The headers are in (the bounded connection bounds the body) or the call is over: nothing is closed from now on. */
  @Override
  public synchronized void close() {
    over = true;
    if (alarm != null) {
      alarm.cancel(false);
    }
  }
}
