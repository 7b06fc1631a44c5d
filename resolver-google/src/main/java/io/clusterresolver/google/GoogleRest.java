package io.clusterresolver.google;

import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudHttp;
import java.io.IOException;
import java.net.URI;

/**
 * How a provider's {@link GoogleCalls} reach a Google API: the credentials, loaded on the first call and kept for the
 * resolver's life (with their token), the endpoint when it is overridden, and the resolver's {@link AnswerLimit}.
 */
public final class GoogleRest {

  private final URI endpoint;
  /** The resolver's answer limit, also over what a gzip answer inflates to ({@link GoogleCalls}). */
  private final AnswerLimit limit;
  /** What {@code credentials} gave {@link GoogleCalls}: the setting's, or Application Default Credentials' own. */
  private final CredentialsProvider setting;
  private CloudHttp.Authorization authorization;

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials where the credentials come from ({@link GoogleCredentialsSetting#read}), asked once
   * @param limit the answer limit of the resolver
   */
  public GoogleRest(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.endpoint = endpoint;
    this.limit = limit;
    this.setting = credentials;
  }

  /** The endpoint, or {@code null} for Google's. */
  URI endpoint() {
    return endpoint;
  }

  /** The resolver's answer limit. */
  AnswerLimit limit() {
    return limit;
  }

  /**
   * The credentials of {@link GoogleCalls}, loaded on the first call and kept: Application Default Credentials'
   * ({@link ApplicationDefault#authorization()}: the metadata server's token on a VM), else the setting's
   * credentials as headers ({@link CloudHttp.Authorization#NONE} for {@code credentials=none}).
   *
   * @throws IOException when they cannot be loaded
   */
  synchronized CloudHttp.Authorization authorization() throws IOException {
    if (authorization == null) {
      authorization = setting instanceof ApplicationDefault adc ? adc.authorization()
          : CredentialsHeaders.of(setting.getCredentials());
    }
    return authorization;
  }

  /** Builds a client; a failure to load the credentials is a {@link CredentialsUnavailable}. */
  public static <T> T create(ClientFactory<T> factory) {
    try {
      return factory.create();
    } catch (IOException e) {
      String detail = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
      throw new CredentialsUnavailable(e.getClass().getSimpleName() + ": " + detail, e);
    }
  }

  /** Builds a client, which loads the credentials. */
  public interface ClientFactory<T> {
    /** Builds the client. */
    T create() throws IOException;
  }

  /** Credentials could not be loaded: nothing was asked of the API (the kit makes it a configuration error). */
  public static final class CredentialsUnavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CredentialsUnavailable(String message, IOException cause) {
      super(message, cause);
    }
  }
}
