package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.api.gax.core.CredentialsProvider;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.clusterresolver.cloud.AnswerLimit;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** An API's clients: built on first use on one connection (credentials asked once) and kept. */
class GoogleApiTest {

  /** Stands in for a client: what matters here is what it was built on and when. */
  private static final class Client {
    final GoogleRest rest;

    Client(GoogleRest rest) throws IOException {
      this.rest = rest;
      rest.authorization(); // as GoogleCalls does when built
    }
  }

  private final AtomicInteger credentialsAsked = new AtomicInteger();
  private final CredentialsProvider credentials = () -> {
    credentialsAsked.incrementAndGet();
    return GoogleCredentials.create(new AccessToken("ya29.test", null));
  };

  @Test
  void clientsAreBuiltOnFirstUseOnceOnOneConnection() {
    GoogleApi api = new GoogleApi(URI.create("http://127.0.0.1:1"), credentials, AnswerLimit.ofBytes(1 << 20));
    List<Client> built = new ArrayList<>();
    Supplier<Client> first = api.client(rest -> {
      Client c = new Client(rest);
      built.add(c);
      return c;
    });
    Supplier<Client> second = api.client(Client::new);
    assertThat(built).isEmpty();
    assertThat(credentialsAsked).as("creating a resolver asks nothing").hasValue(0);

    assertThat(first.get()).isSameAs(first.get());
    assertThat(built).hasSize(1);
    assertThat(second.get().rest).isSameAs(first.get().rest);
    assertThat(second.get().rest.endpoint()).isEqualTo(URI.create("http://127.0.0.1:1"));
    assertThat(credentialsAsked).as("loaded once for both clients").hasValue(1);
  }

  @Test
  void credentialsThatCannotBeLoadedAreCredentialsUnavailableNamingTheFirstLineAndAskedAgainNextTime() {
    GoogleApi api = new GoogleApi(null, credentials, AnswerLimit.ofBytes(1 << 20));
    AtomicInteger attempts = new AtomicInteger();
    Supplier<Client> client = api.client(rest -> {
      if (attempts.incrementAndGet() == 1) {
        throw new IOException("The Application Default Credentials are not available.\nSee https://…");
      }
      return new Client(rest);
    });
    assertThat(catchThrowable(client::get)).isInstanceOf(GoogleRest.CredentialsUnavailable.class)
        .hasMessage("IOException: The Application Default Credentials are not available.");
    assertThat(client.get()).as("a failure is not kept").isNotNull();
    assertThat(attempts).hasValue(2);
  }
}
