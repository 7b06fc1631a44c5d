package io.clusterresolver.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

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

  /**
   * Relays every connection {@code front} accepts to {@code 127.0.0.1:backPort}, byte for byte in both
   * directions, on daemon threads, until {@code front} is closed: a server seen at another address (a test
   * host's) or behind TLS ({@code front} an {@code SSLServerSocket}) while it listens on loopback in plain text.
   *
   * @return the accepting thread, started
   */
  public static Thread forward(ServerSocket front, int backPort) {
    Thread accept = new Thread(() -> {
      while (!front.isClosed()) {
        try {
          Socket client = front.accept();
          Socket back = new Socket(InetAddress.getLoopbackAddress(), backPort);
          pipe(client, back);
          pipe(back, client);
        } catch (IOException e) {
          // closed, or one connection (or its TLS handshake) failed: the client sees a reset, the next is accepted
        }
      }
    }, "loopback-forward");
    accept.setDaemon(true);
    accept.start();
    return accept;
  }

  private static void pipe(Socket from, Socket to) {
    Thread pipe = new Thread(() -> {
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        in.transferTo(out);
      } catch (IOException e) {
        // the other side closed
      } finally {
        try {
          from.close();
          to.close();
        } catch (IOException ignored) {
          // already closed
        }
      }
    }, "loopback-forward-pipe");
    pipe.setDaemon(true);
    pipe.start();
  }
}
