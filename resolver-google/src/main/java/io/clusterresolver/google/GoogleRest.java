package io.clusterresolver.google;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.ConnectionFactory;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.httpjson.HttpJsonCallContext;
import com.google.api.gax.httpjson.InstantiatingHttpJsonChannelProvider;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.api.gax.rpc.ClientSettings;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.auth.Credentials;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudHttp;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a Google provider connects a gax client over REST: its credentials, loaded once per resolver
 * (clients come and go with resolves, the credentials and their token stay), the endpoint when it is
 * overridden, and a transport whose every answer is read under the resolver's {@link AnswerLimit}.
 */
public final class GoogleRest {

  private final URI endpoint;
  private final CredentialsProvider credentials;
  /**
   * The bounded connections of every call: the size limit, and the call's timeout over the whole body ({@link
   * GoogleCalls} opens them itself; a gax client reads them through a google-http-client transport).
   */
  private final ConnectionFactory connections;
  /** The resolver's answer limit, also over what a gzip answer inflates to ({@link GoogleCalls}). */
  private final AnswerLimit limit;
  private Credentials loaded;
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
    this.connections = limit::open;
    this.limit = limit;
    this.setting = credentials;
    this.credentials = () -> {
      synchronized (this) {
        if (loaded == null) {
          loaded = credentials.getCredentials();
        }
        return loaded;
      }
    };
  }

  /**
   * Sets the credentials, the bounded transport and, when overridden, the endpoint ({@code http://} is
   * kept: gax assumes https otherwise).
   */
  public <B extends ClientSettings.Builder<?, B>> B connect(B builder) {
    builder.setCredentialsProvider(credentials);
    if (endpoint != null) {
      builder.setEndpoint(endpoint.toString());
    }
    HttpTransport transport = new NetHttpTransport.Builder().setConnectionFactory(connections).build();
    builder.setTransportChannelProvider(((InstantiatingHttpJsonChannelProvider) builder.getTransportChannelProvider())
        .toBuilder().setHttpTransport(transport).build());
    return builder;
  }

  /** The endpoint, or {@code null} for Google's. */
  URI endpoint() {
    return endpoint;
  }

  /** The resolver's answer limit. */
  AnswerLimit limit() {
    return limit;
  }

  /** Opens the bounded connections of the transport. */
  ConnectionFactory connections() {
    return connections;
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
          : CredentialsHeaders.of(credentials.getCredentials());
    }
    return authorization;
  }

  /**
   * A call's context: the timeout bounds the wait for headers, the answer-limit header (read by the
   * bounded connection) the body too.
   */
  public static ApiCallContext context(Duration remaining) {
    return HttpJsonCallContext.createDefault().withTimeoutDuration(remaining)
        .withExtraHeaders(Map.of(AnswerLimit.TIME_HEADER, List.of(Long.toString(Math.max(1, remaining.toMillis())))));
  }

  /**
   * Makes a call's settings one attempt, bounded by {@code ceiling} (each call's {@link #context} sets its
   * own, shorter timeout): the kit's {@code CloudApi} retries, so nothing retries twice.
   */
  public static void oneAttempt(UnaryCallSettings.Builder<?, ?> settings, Duration ceiling) {
    settings.setRetryableCodes(Set.of()).setRetrySettings(RetrySettings.newBuilder().setMaxAttempts(1)
        .setInitialRpcTimeoutDuration(ceiling).setRpcTimeoutMultiplier(1.0).setMaxRpcTimeoutDuration(ceiling)
        .setTotalTimeoutDuration(ceiling).build());
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

  /** A gax client's {@code create(settings)}, which loads the credentials. */
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
