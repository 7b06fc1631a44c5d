package io.clusterresolver.aws;

import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import software.amazon.awssdk.regions.ServiceMetadata;

/**
 * Work the first EC2 call needs anyway, started on a daemon thread while the calling thread builds
 * the SDK client (or signs the first request) (a cold build runs on one thread; the machines have at least two cores): the SDK's
 * table of every service's endpoints and signing regions, which building any client reads (about 400
 * classes, a tenth of a cold start), and the JDK's default TLS context (the trust store read) when the
 * calls go over {@code https} on the JDK's connections. Whoever needs either first waits for it or
 * makes it; nothing here can fail a resolve.
 */
final class Ec2Warmup {

  /** Each is made once per process: later resolvers find them made. */
  private static final AtomicBoolean METADATA = new AtomicBoolean();
  private static final AtomicBoolean TLS = new AtomicBoolean();

  private Ec2Warmup() {}

  /**
   * Starts what this process has not started yet: {@code endpoints}, the SDK's table of endpoints (which building a
   * client reads), {@code tls}, the JDK's default TLS context.
   */
  static void start(boolean endpoints, boolean tls) {
    boolean metadata = endpoints && METADATA.compareAndSet(false, true);
    boolean context = tls && TLS.compareAndSet(false, true);
    if (!metadata && !context) {
      return;
    }
    Thread warmup = new Thread(() -> {
      try {
        if (metadata) {
          ServiceMetadata.of("ec2");
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
