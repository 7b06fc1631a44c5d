package io.clusterresolver.google;

import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.cloud.AnswerLimit;
import java.io.IOException;
import java.net.URI;
import java.util.function.Supplier;

/**
 * One Google API of a resolver: how it connects ({@link GoogleRest}: the endpoint, the credentials loaded once, the
 * answer limit) and its clients, each built on its first call and then kept, so that creating a resolver touches
 * neither the network nor the credentials. A client holds no thread or pool ({@link GoogleCalls} calls on the
 * caller's thread), so nothing is closed. Thread-safe.
 */
public final class GoogleApi {

  private final GoogleRest rest;

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials where the credentials come from ({@link GoogleCredentialsSetting#read}), asked once
   * @param limit the answer limit of the resolver
   */
  public GoogleApi(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.rest = new GoogleRest(endpoint, credentials, limit);
  }

  /**
   * A client of this API, built by {@code factory} when first asked for (like {@code rest -> new GoogleCalls(rest,
   * "tpu.googleapis.com:443")}) and kept; credentials that cannot be loaded then are a {@link
   * GoogleRest.CredentialsUnavailable}, and the next call tries again.
   */
  public <T> Supplier<T> client(Factory<T> factory) {
    return new Supplier<>() {
      private T client;

      @Override
      public synchronized T get() {
        if (client == null) {
          client = GoogleRest.create(() -> factory.create(rest));
        }
        return client;
      }
    };
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
