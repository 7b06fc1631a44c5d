package io.clusterresolver.google;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The gax clients of one resolver, each built on first use (so creating a resolver touches neither the
 * network nor the credentials, and a resolve builds only the clients it calls) and kept while resolves
 * use them: each resolve takes a {@link #lease()}, and the last one to end closes them. Closing matters:
 * gax's HTTP/JSON channel keeps a non-daemon scheduler thread until it is closed, which would keep a
 * program that resolved from exiting. A CLI process, one resolve, builds each client once.
 */
public final class GoogleClients {

  private final List<Slot<?>> slots = new ArrayList<>();
  /** Resolves using the clients now. */
  private int leases;

  /**
   * A client built by {@code create} (like {@code () -> GoogleRest.create(() -> TpuClient.create(settings))})
   * when first asked for, until the last lease ends.
   */
  public synchronized <T extends AutoCloseable> Supplier<T> client(Supplier<T> create) {
    Slot<T> slot = new Slot<>(create);
    slots.add(slot);
    return slot;
  }

  /** Takes the clients for one resolve; {@link Lease#close()} ends it. */
  public synchronized Lease lease() {
    leases++;
    return this::release;
  }

  private synchronized void release() {
    if (--leases > 0) {
      return;
    }
    slots.forEach(Slot::close);
  }

  /** One resolve's use of the clients. */
  public interface Lease extends AutoCloseable {
    @Override
    void close();
  }

  private final class Slot<T extends AutoCloseable> implements Supplier<T> {
    private final Supplier<T> create;
    private T client;

    Slot(Supplier<T> create) {
      this.create = create;
    }

    @Override
    public T get() {
      synchronized (GoogleClients.this) {
        if (client == null) {
          client = create.get();
        }
        return client;
      }
    }

    void close() {
      if (client != null) {
        try {
          client.close();
        } catch (Exception e) {
          // closing only frees threads; nothing is lost
        }
        client = null;
      }
    }
  }
}
