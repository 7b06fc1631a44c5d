package io.clusterresolver.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.identity.DefaultAzureCredentialBuilder;

/** azure-identity's default chain, in its own class so that it is loaded only when used. */
final class IdentityCredentials {

  private IdentityCredentials() {}

  /**
   * The default chain (environment, workload identity, managed identity, the Azure CLI, …).
   *
   * @param clientId the client id of a user-assigned managed identity, or {@code null} for the system-assigned one
   */
  static TokenCredential defaultChain(String clientId) {
    DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder();
    if (clientId != null) {
      builder.managedIdentityClientId(clientId);
    }
    return builder.build();
  }
}
