package io.clusterresolver.cloud.internal;

/** For tests outside this package: stops every relay this JVM serves. */
public final class RelayServers {

  private RelayServers() {}

  /** Stops them all (a test's relays must not outlive it). */
  public static void stopAll() {
    RelayServer.stopAll();
  }
}
