package io.clusterresolver.aws;

import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.crypto.Mac;
import javax.net.ssl.SSLContext;

/**
 * Work the first EC2 call needs anyway, started on a daemon thread while the calling thread lays out the resolve
 * (a cold build runs on one thread; the machines have at least two cores): the JDK's {@code HmacSHA256} (the
 * cryptography providers loaded and searched, which SigV4 signing first asks for) and, when the calls go over
 * {@code https}, the JDK's default TLS context (the trust store read). Whoever needs either first waits for it or
 * makes it; nothing here can fail a resolve.
 */
final class Ec2Warmup {

  /** Each is made once per process: later resolvers find them made. */
  private static final AtomicBoolean SIGNING = new AtomicBoolean();
  private static final AtomicBoolean TLS = new AtomicBoolean();

  private Ec2Warmup() {}

  /** Starts what this process has not started yet: the signing's MAC and, when {@code tls}, the TLS context. */
  static void start(boolean tls) {
    boolean mac = SIGNING.compareAndSet(false, true);
    boolean context = tls && TLS.compareAndSet(false, true);
    if (!mac && !context) {
      return;
    }
    Thread warmup = new Thread(() -> {
      try {
        if (mac) {
          Mac.getInstance("HmacSHA256");
        }
        if (context) {
          SSLContext.getDefault();
        }
      } catch (NoSuchAlgorithmException | RuntimeException | LinkageError e) {
        // Whoever needs it meets the same trouble and reports it.
      }
    }, "cluster-resolver-aws-warmup");
    warmup.setDaemon(true);
    warmup.start();
  }
}
