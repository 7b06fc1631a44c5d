package io.clusterresolver.aws;

import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;

/**
 * Work the first EC2 call needs anyway, started on a daemon thread while the calling thread signs the first request
 * (a cold build runs on one thread; the machines have at least two cores): the JDK's default TLS context (the trust
 * store read) when the calls go over {@code https}. Whoever needs it first waits for it or makes it; nothing here can
 * fail a resolve.
 */
final class Ec2Warmup {

  /** Made once per process: later resolvers find it made. */
  private static final AtomicBoolean TLS = new AtomicBoolean();

  private Ec2Warmup() {}

  /** Starts making the JDK's default TLS context, when {@code tls} and this process has not started it yet. */
  static void start(boolean tls) {
    if (!tls || !TLS.compareAndSet(false, true)) {
      return;
    }
    Thread warmup = new Thread(() -> {
      try {
        SSLContext.getDefault();
      } catch (NoSuchAlgorithmException | RuntimeException | LinkageError e) {
        // Whoever needs it meets the same trouble and reports it.
      }
    }, "cluster-resolver-aws-warmup");
    warmup.setDaemon(true);
    warmup.start();
  }
}
