package io.clusterresolver.runtime;

import io.clusterresolver.ClusterSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Loopback addresses for test clusters. */
final class TestCluster {
  private TestCluster() {}

  static int unusedPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Distinct addresses: every socket stays open until all ports are picked. */
  static List<String> addresses(int n) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      List<String> list = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        list.add("127.0.0.1:" + socket.getLocalPort());
      }
      return list;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // The port is free either way.
        }
      }
    }
  }

  /** A cluster of the given jobs and task counts on unused loopback ports. */
  static ClusterSpec cluster(Object... jobAndCount) {
    ClusterSpec.Builder builder = ClusterSpec.builder();
    for (int i = 0; i < jobAndCount.length; i += 2) {
      builder.addJob((String) jobAndCount[i], addresses((Integer) jobAndCount[i + 1]));
    }
    return builder.build();
  }

  static String cpu(String job, int task) {
    return DeviceName.format(job, task, "CPU", 0);
  }
}
