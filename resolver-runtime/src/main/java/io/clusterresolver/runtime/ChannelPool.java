package io.clusterresolver.runtime;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The process's gRPC channels to task addresses, shared by connections: connecting again, or
 * several local tasks connecting to the same cluster, reuse the open HTTP/2 connections instead of
 * opening new ones. A channel no connection uses is closed after a short linger, so a connect right
 * after a close still finds it.
 */
final class ChannelPool {
  static final long LINGER_MILLIS = 30_000;
  private static final Map<Key, Entry> CHANNELS = new HashMap<>();

  private ChannelPool() {}

  /** A channel to {@code address} with this security; release it with {@link #release}. */
  static ManagedChannel acquire(String address, TlsConfig tls) {
    Key key = new Key(address, tls);
    synchronized (CHANNELS) {
      Entry entry = CHANNELS.get(key);
      if (entry == null || entry.channel.isShutdown()) {
        entry = new Entry(newChannel(address, tls));
        CHANNELS.put(key, entry);
      }
      if (entry.pendingClose != null) {
        entry.pendingClose.cancel(false);
        entry.pendingClose = null;
      }
      entry.users++;
      return entry.channel;
    }
  }

  /** Gives a channel back; the last user's release schedules its close. */
  static void release(String address, TlsConfig tls, ManagedChannel channel) {
    Key key = new Key(address, tls);
    synchronized (CHANNELS) {
      Entry entry = CHANNELS.get(key);
      if (entry == null || entry.channel != channel) {
        channel.shutdownNow();
        return;
      }
      if (--entry.users == 0) {
        entry.pendingClose = Cluster.SCHEDULER.schedule(() -> {
          synchronized (CHANNELS) {
            if (entry.users == 0 && CHANNELS.get(key) == entry) {
              CHANNELS.remove(key);
              entry.channel.shutdownNow();
            }
          }
        }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** A channel of its own, not shared. */
  static ManagedChannel newChannel(String address, TlsConfig tls) {
    int colon = address.lastIndexOf(':');
    String host = address.substring(0, Math.max(colon, 0));
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.equalsIgnoreCase("localhost")) {
      // Servers listen on the loopback address; "localhost" may resolve to an unreachable ::1 first.
      host = InetAddress.getLoopbackAddress().getHostAddress();
    }
    int port = TaskServer.portOf(address);
    ChannelCredentials credentials =
        tls == null ? InsecureChannelCredentials.create() : tls.channelCredentials();
    return Grpc.newChannelBuilderForAddress(host, port, credentials)
        .maxInboundMessageSize(TaskChannel.MAX_MESSAGE_BYTES)
        // Our callbacks only complete futures: run them on the transport thread, no hand-off.
        .directExecutor()
        .build();
  }

  private static final class Entry {
    final ManagedChannel channel;
    int users;
    ScheduledFuture<?> pendingClose;

    Entry(ManagedChannel channel) {
      this.channel = channel;
    }
  }

  /**
   * Address and security: a channel is shared only between connections with the same TlsConfig
   * (the same instance: TlsConfig keeps identity equality).
   */
  private record Key(String address, TlsConfig tls) {}
}
