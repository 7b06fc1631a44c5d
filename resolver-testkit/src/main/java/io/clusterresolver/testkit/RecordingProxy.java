package io.clusterresolver.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy on loopback for the tests of a provider's proxy settings: it records the first line of every request
 * it is asked ({@code CONNECT host:port HTTP/1.1} for an {@code https} call, {@code GET http://host/path HTTP/1.1}
 * for an {@code http} one) with the {@code Proxy-Authorization} it came with, then either answers {@code 502 Bad
 * Gateway} and closes ({@link #refusing()}: the call fails, the test reads what was asked) or, for a {@code CONNECT},
 * tunnels to its authority ({@link #tunnelling()}: a proxied resolve of a simulation still lists its cluster).
 * Each connection is served on a daemon thread of its own. Thread-safe.
 */
public final class RecordingProxy implements AutoCloseable {

  private static final byte[] BAD_GATEWAY = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
      .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ESTABLISHED = "HTTP/1.1 200 Connection established\r\n\r\n"
      .getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket socket;
  private final boolean tunnels;
  private final List<String> asked = new CopyOnWriteArrayList<>();

  private RecordingProxy(boolean tunnels) {
    this.tunnels = tunnels;
    try {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    daemon(() -> {
      while (!socket.isClosed()) {
        try {
          Socket client = socket.accept();
          daemon(() -> serve(client));
        } catch (IOException e) {
          // closed
        }
      }
    });
  }

  /** A proxy that answers every request {@code 502 Bad Gateway}. */
  public static RecordingProxy refusing() {
    return new RecordingProxy(false);
  }

  /** A proxy that tunnels each {@code CONNECT} to its authority and answers anything else {@code 502}. */
  public static RecordingProxy tunnelling() {
    return new RecordingProxy(true);
  }

  /** The loopback port it listens on. */
  public int port() {
    return socket.getLocalPort();
  }

  /**
   * What it was asked since the last call, in order: each request's first line, followed by {@code " [CREDENTIALS]"}
   * when it came with a {@code Proxy-Authorization} header.
   */
  public List<String> take() {
    List<String> seen = new ArrayList<>(asked);
    asked.removeAll(seen);
    return seen;
  }

  private void serve(Socket client) {
    try (client) {
      // One byte at a time: nothing of a tunnelled TLS handshake may be read ahead into this reader's buffer.
      BufferedReader head = new BufferedReader(new InputStreamReader(client.getInputStream(),
          StandardCharsets.ISO_8859_1), 1);
      String first = head.readLine();
      if (first == null) {
        return;
      }
      String credentials = "";
      for (String line = head.readLine(); line != null && !line.isEmpty(); line = head.readLine()) {
        if (line.regionMatches(true, 0, "Proxy-Authorization:", 0, 20)) {
          credentials = " [" + line.substring(20).trim() + "]";
        }
      }
      asked.add(first + credentials);
      OutputStream out = client.getOutputStream();
      String[] parts = first.split(" ");
      if (!tunnels || parts.length != 3 || !parts[0].equals("CONNECT")) {
        out.write(BAD_GATEWAY);
        out.flush();
        return;
      }
      URI authority = URI.create("//" + parts[1]);
      try (Socket target = new Socket(authority.getHost(), authority.getPort())) {
        out.write(ESTABLISHED);
        out.flush();
        Thread back = daemon(() -> pipe(target, client));
        pipe(client, target);
        back.join(5_000);
      }
    } catch (IOException | InterruptedException e) {
      // the client or the target went away
    }
  }

  /** Copies {@code from}'s bytes to {@code to} until {@code from} ends. */
  private static void pipe(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
      to.shutdownOutput();
    } catch (IOException e) {
      // closed
    }
  }

  private static Thread daemon(Runnable work) {
    Thread thread = new Thread(work, "recording-proxy");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
