package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Clients built on first use, once while leased, closed when the last lease ends. */
class GoogleClientsTest {

  /** Stands in for a gax client: what matters here is when it is built and closed. */
  private static final class Client implements AutoCloseable {
    boolean closed;

    @Override
    public void close() {
      closed = true;
    }
  }

  @Test
  void aClientIsBuiltOnFirstUseOnceAndClosedByTheLastLease() {
    GoogleClients clients = new GoogleClients();
    List<Client> built = new ArrayList<>();
    Supplier<Client> client = clients.client(() -> {
      Client c = new Client();
      built.add(c);
      return c;
    });
    Supplier<Client> unused = clients.client(() -> {
      throw new AssertionError("a client no resolve calls is never built");
    });
    assertThat(built).isEmpty();

    GoogleClients.Lease first = clients.lease();
    GoogleClients.Lease second = clients.lease();
    assertThat(client.get()).isSameAs(client.get());
    assertThat(built).hasSize(1);
    first.close();
    assertThat(built.get(0).closed).as("another resolve still uses it").isFalse();
    second.close();
    assertThat(built.get(0).closed).isTrue();

    try (GoogleClients.Lease again = clients.lease()) {
      assertThat(client.get()).isNotSameAs(built.get(0));
    }
    assertThat(built).hasSize(2).allMatch(c -> c.closed);
    assertThat(unused).isNotNull();
  }
}
