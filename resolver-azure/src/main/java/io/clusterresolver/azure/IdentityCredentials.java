package io.clusterresolver.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.identity.DefaultAzureCredentialBuilder;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/** azure-identity's default chain, in its own class so that it is loaded only when used. */
final class IdentityCredentials {

  /**
   * What an over-limit token answer's error advises: the token endpoint is not {@code
   * clusterresolver.azure.endpoint} but the one the identity settings name.
   */
  static final String TOKEN_ENDPOINT_ADVICE = "check the token endpoint the identity settings name"
      + " (AZURE_AUTHORITY_HOST for a client secret or workload identity, IDENTITY_ENDPOINT or the instance"
      + " metadata service for a managed identity)";

  private IdentityCredentials() {}

  /**
   * The default chain (environment, workload identity, managed identity, the Azure CLI, …).
   *
   * @param clientId the client id of a user-assigned managed identity, or {@code null} for the system-assigned one
   * @param http the client of the chain's token requests (managed identity, Microsoft Entra ID): a
   *     {@link #tokenHttp}, since a token endpoint's answer is read like any other
   */
  static TokenCredential defaultChain(String clientId, HttpClient http) {
    DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder().httpClient(http);
    if (clientId != null) {
      builder.managedIdentityClientId(clientId);
    }
    return builder.build();
  }

  /**
   * The client of the token requests: answers under {@code bounds} (naming the identity settings when
   * too large), each within what is left of the deadline of the resolve in progress ({@link
   * BearerTokens#of}), since azure-identity sends them without the call's context.
   */
  static HttpClient tokenHttp(SSLContext trust, BoundedAnswers bounds, Supplier<Deadline> resolveInProgress) {
    return BoundedHttpClient.overJdk(trust, bounds.advising(TOKEN_ENDPOINT_ADVICE), resolveInProgress);
  }
}
