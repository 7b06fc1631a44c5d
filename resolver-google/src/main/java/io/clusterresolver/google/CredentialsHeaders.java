package io.clusterresolver.google;

import com.google.auth.Credentials;
import io.clusterresolver.cloud.CloudHttp;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * google-auth's credentials as google-auth's {@code HttpCredentialsAdapter} applies them: their request metadata as
 * headers, and one refresh after a 401 (the token may have been revoked early).
 */
final class CredentialsHeaders implements CloudHttp.Authorization {
  private final Credentials credentials;

  private CredentialsHeaders(Credentials credentials) {
    this.credentials = credentials;
  }

  /** The headers of {@code credentials}, or none for {@code null} ({@code credentials=none}). */
  static CloudHttp.Authorization of(Credentials credentials) {
    return credentials == null ? CloudHttp.Authorization.NONE : new CredentialsHeaders(credentials);
  }

  @Override
  public Map<String, List<String>> headers(CloudHttp.Request request) throws IOException {
    if (!credentials.hasRequestMetadata()) {
      return Map.of();
    }
    Map<String, List<String>> metadata = credentials.getRequestMetadata(request.uri());
    return metadata == null ? Map.of() : metadata;
  }

  @Override
  public boolean renewed() throws IOException {
    credentials.refresh();
    return true;
  }
}
