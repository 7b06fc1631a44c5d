package io.clusterresolver.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Separate hosts on one Linux machine, for tests of processes that talk across hosts: each host is
 * a network namespace with its own address on a bridge that lives in a namespace of its own, so an
 * address belongs to exactly one host and nothing of the machine's own network is touched. Needs
 * {@code ip} (iproute2) and the right to make namespaces (root, as in CI). {@link #close()} removes
 * every namespace it made (and with them their links).
 *
 * <p>Addresses: host {@code i} is {@code 198.18.0.(i + 1)/24}, from the range set aside for
 * benchmarking network devices (RFC 2544), present only inside these namespaces.
 */
public final class TestHosts implements AutoCloseable {

  private static final String SUBNET = "198.18.0.";

  private final String prefix;
  private final int count;
  private final List<String> made = new ArrayList<>();

  private TestHosts(String prefix, int count) {
    this.prefix = prefix;
    this.count = count;
  }

  /**
   * Why hosts cannot be made here ({@code ip} missing, no right to make namespaces), or empty when
   * they can. Tried by making and removing one namespace.
   */
  public static Optional<String> unavailable() {
    String probe = "crt-probe-" + ProcessHandle.current().pid();
    try {
      String out = run("ip", "netns", "add", probe);
      run("ip", "netns", "del", probe);
      return out == null ? Optional.empty() : Optional.of("'ip netns add' failed: " + out);
    } catch (IOException e) {
      return Optional.of("no 'ip' command (install iproute2): " + e.getMessage());
    }
  }

  /** {@code count} hosts on one bridge; removed again if making any of them fails. */
  public static TestHosts create(int count) throws IOException {
    TestHosts hosts = new TestHosts("crt" + ProcessHandle.current().pid() + "-", count);
    try {
      hosts.make();
      return hosts;
    } catch (IOException | RuntimeException e) {
      hosts.close();
      throw e;
    }
  }

  private void make() throws IOException {
    String net = prefix + "net";
    add(net);
    must("ip", "-n", net, "link", "add", "br0", "type", "bridge");
    must("ip", "-n", net, "link", "set", "br0", "up");
    for (int i = 0; i < count; i++) {
      String host = namespace(i);
      add(host);
      must("ip", "-n", host, "link", "set", "lo", "up");
      must("ip", "-n", host, "link", "add", "eth0", "type", "veth", "peer", "name", "h" + i, "netns", net);
      must("ip", "-n", net, "link", "set", "h" + i, "master", "br0", "up");
      must("ip", "-n", host, "addr", "add", address(i) + "/24", "dev", "eth0");
      must("ip", "-n", host, "link", "set", "eth0", "up");
    }
  }

  private void add(String namespace) throws IOException {
    must("ip", "netns", "add", namespace);
    made.add(namespace);
  }

  /** The namespace of host {@code i}. */
  public String namespace(int i) {
    return prefix + "h" + i;
  }

  /** Host {@code i}'s address. */
  public String address(int i) {
    return SUBNET + (i + 1);
  }

  /** {@code command} as run on host {@code i}. */
  public List<String> on(int i, List<String> command) {
    List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
    full.addAll(command);
    return full;
  }

  private static void must(String... command) throws IOException {
    String failed = run(command);
    if (failed != null) {
      throw new IOException(String.join(" ", command) + ": " + failed);
    }
  }

  /** Runs a short command; {@code null} when it succeeded, else its output. */
  private static String run(String... command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "did not finish within 30 s";
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", command), e);
    }
  }

  /** Removes the namespaces (hosts first, the bridge's last). */
  @Override
  public void close() {
    for (int i = made.size() - 1; i >= 0; i--) {
      try {
        run("ip", "netns", "del", made.get(i));
      } catch (IOException e) {
        // best effort: reported by 'ip netns list'
      }
    }
    made.clear();
  }
}
