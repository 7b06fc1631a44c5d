package io.clusterresolver.azure;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.spi.ConfigProperty;
import java.util.Map;

/** Every property the {@code azure} provider reads: {@code clusterresolver.azure.<name>}. */
final class AzureProperties {

  static final ConfigProperty<String> TASKS_PER_VM = CloudProperties.tasksPerMember("tasks-per-vm");

  static final ConfigProperty<String> SUBSCRIPTION = ConfigProperty.string("subscription")
      .description("Subscription id of the VMs; default: AZURE_SUBSCRIPTION_ID, then the instance metadata")
      .build();
  static final ConfigProperty<String> RESOURCE_GROUP = ConfigProperty.string("resource-group")
      .description("Only VMs of this resource group (default: the whole subscription); required with scale-set")
      .build();
  static final ConfigProperty<String> SCALE_SET = ConfigProperty.string("scale-set")
      .description("Only the VMs of this scale set (Uniform or Flexible) of the resource group")
      .build();
  static final ConfigProperty<Map<String, String>> TAGS = ConfigProperty.map("tags")
      .description("Only VMs whose tags hold all these, like k1=v1,k2=v2 (names and values matched exactly)")
      .build();
  static final ConfigProperty<Boolean> TAG_NAMES_CASE_INSENSITIVE = ConfigProperty.bool("tag-names-case-insensitive")
      .defaultValue("false")
      .description("Match tag names (of tags, job-tag and order tag:KEY) ignoring case, as ARM stores them; values stay exact")
      .build();
  static final ConfigProperty<String> ADDRESS = CloudProperties.address(AddressType.PRIVATE_IPV4,
      AddressType.PRIVATE_IPV4, AddressType.PUBLIC_IPV4);
  static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint(
      "Resource Manager endpoint (a proxy, a sovereign cloud, a simulation); default https://management.azure.com");
  static final ConfigProperty<String> IMDS_ENDPOINT = CloudProperties.endpoint("imds-endpoint",
      "Instance Metadata Service endpoint: the VM's identity, and its managed identity's token unless"
          + " AZURE_POD_IDENTITY_AUTHORITY_HOST names another; default http://169.254.169.254");
  static final ConfigProperty<String> CLIENT_ID = ConfigProperty.string("client-id")
      .description("Client id of the user-assigned managed identity to sign in with; default: the default credential chain")
      .build();
  static final ConfigProperty<String> ACCESS_TOKEN = ConfigProperty.string("access-token").secret()
      .description("A fixed bearer token for Resource Manager (proxies, tests) instead of the credential chain")
      .build();

  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(SUBSCRIPTION, RESOURCE_GROUP,
      SCALE_SET, TAGS, TAG_NAMES_CASE_INSENSITIVE, ADDRESS, ENDPOINT, IMDS_ENDPOINT, CLIENT_ID, ACCESS_TOKEN)
      .tasksPerMember(TASKS_PER_VM).build();

  private AzureProperties() {}
}
