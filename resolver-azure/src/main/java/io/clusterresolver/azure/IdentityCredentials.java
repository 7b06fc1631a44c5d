package io.clusterresolver.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.identity.DefaultAzureCredentialBuilder;

/** azure-identity's default chain, in its own class so that it is loaded only when used. */
final class IdentityCredentials {

  private IdentityCredentials() {}

  /**
   * The default chain (environment, workload identity, managed identity, the Azure CLI, …).
   *
   * @param clientId the client id of a user-assigned managed identity, or {@code null} for the system-assigned one
   * @param http the client of the chain's token requests (managed identity, Microsoft Entra ID): a
   *     {@link BoundedHttpClient}, since a token endpoint's answer is read like any other
   */
  static TokenCredential defaultChain(String clientId, HttpClient http) {
    DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder().httpClient(http);
    if (clientId != null) {
      builder.managedIdentityClientId(clientId);
    }
    return builder.build();
  }
}
