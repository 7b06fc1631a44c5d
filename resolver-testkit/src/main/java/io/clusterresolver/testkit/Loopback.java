package io.clusterresolver.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Addresses on loopback for servers a test starts itself (a relay, a task server). */
public final class Loopback {

  private Loopback() {}

  /** A loopback port that is free now (the system's choice; another process may take it later). */
  public static int freePort() {
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return free.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }

  /** {@code 127.0.0.1:PORT} with a port that is {@linkplain #freePort() free now}. */
  public static String freeAddress() {
    return "127.0.0.1:" + freePort();
  }
}
