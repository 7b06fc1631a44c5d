package io.clusterresolver.google;

import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.cloud.AnswerLimit;
import java.io.IOException;
import java.net.URI;
import java.util.function.Supplier;

/**
 * One Google API of a resolver: how it connects ({@link GoogleRest}: the endpoint, the credentials loaded once, the
 * answer limit) and its clients, each built on its first call, so that creating a resolver touches neither the
 * network nor the credentials, and kept while resolves use them ({@link GoogleClients}: each resolve takes a {@link
 * #lease()}, the last one to end closes them). Thread-safe.
 */
public final class GoogleApi {

  private final GoogleRest rest;
  private final GoogleClients clients = new GoogleClients();

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials where the credentials come from ({@link GoogleCredentialsSetting#read}), asked once
   * @param limit the answer limit of the resolver
   */
  public GoogleApi(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.rest = new GoogleRest(endpoint, credentials, limit);
  }

  /**
   * A client of this API, built by {@code factory} on its first use within a lease (like {@code rest -> new
   * GoogleCalls(rest, "tpu.googleapis.com:443")}); credentials that cannot be loaded then are a {@link
   * GoogleRest.CredentialsUnavailable}.
   */
  public <T extends AutoCloseable> Supplier<T> client(Factory<T> factory) {
    return clients.client(() -> GoogleRest.create(() -> factory.create(rest)));
  }

  /** Takes the clients for one resolve; {@link GoogleClients.Lease#close()} ends it. */
  public GoogleClients.Lease lease() {
    return clients.lease();
  }

  /** Builds a client on this API's connection. */
  @FunctionalInterface
  public interface Factory<T> {
    /**
     * Builds the client.
     *
     * @throws IOException when the credentials cannot be loaded
     */
    T create(GoogleRest rest) throws IOException;
  }
}
