package io.clusterresolver.azure;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.cloud.MemberOrder;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/** Builds the {@code azure} resolver: validation, credentials, the ARM calls and the member source. */
final class AzureResolverFactory {

  private static final String NAME = AzureClusterResolverProvider.NAME;
  /** Azure's rule for resource group names. */
  private static final Pattern RESOURCE_GROUP_NAME = Pattern.compile("[\\p{L}\\p{N}_().-]{0,89}[\\p{L}\\p{N}_()-]");
  private static final Pattern SUBSCRIPTION_ID =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private AzureResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    CloudResolverSetup setup = CloudResolverSetup.start(config, AzureProperties.DECLARATIONS);
    List<String> problems = setup.problems();
    URI endpoint = setup.endpoint(AzureProperties.ENDPOINT);
    URI imdsEndpoint = setup.endpoint(AzureProperties.IMDS_ENDPOINT);
    if (endpoint != null && !"https".equals(endpoint.getScheme())) {
      problems.add(config.key(AzureProperties.ENDPOINT) + ": '" + endpoint + "' must be an https:// URL (the SDK"
          + " sends bearer tokens only over https; trust a private certificate with javax.net.ssl.trustStore)");
    }
    if (config.isSet(AzureProperties.ACCESS_TOKEN) && config.isSet(AzureProperties.CLIENT_ID)) {
      problems.add("Set either " + config.key(AzureProperties.ACCESS_TOKEN) + " or "
          + config.key(AzureProperties.CLIENT_ID) + ", not both");
    }
    String rg = config.get(AzureProperties.RESOURCE_GROUP);
    if (rg != null && !RESOURCE_GROUP_NAME.matcher(rg).matches()) {
      // Checked before any call: the API would answer a name like "rg/../other" without naming the key.
      problems.add(config.key(AzureProperties.RESOURCE_GROUP) + ": '" + rg + "' is not a resource group name: 1 to 90"
          + " letters, digits, '_', '-', '(', ')' and '.', not ending in '.'");
    }
    String scaleSet = config.get(AzureProperties.SCALE_SET);
    if (scaleSet != null && rg == null) {
      problems.add(config.key(AzureProperties.SCALE_SET) + " needs " + config.key(AzureProperties.RESOURCE_GROUP)
          + ": set the scale set's resource group");
    }
    if (scaleSet != null) {
      // A scale set's default order: Uniform by integer instance id, Flexible by creation time (then id).
      setup.orderUnlessSet(MemberOrder.byTag(AzureMemberSource.RANK_LABEL, MemberOrder.CREATION_TIME));
    }
    Imds imds = new Imds(imdsEndpoint != null ? imdsEndpoint : Imds.DEFAULT_ENDPOINT);
    String subscription = setup.lookup(AzureProperties.SUBSCRIPTION, "subscription",
            "00000000-0000-0000-0000-000000000000")
        .orEnvironment("AZURE_SUBSCRIPTION_ID")
        .orMetadata("the instance metadata",
            () -> imds.compute().map(Imds.Compute::subscriptionId).filter(s -> !s.isEmpty()))
        .matching(SUBSCRIPTION_ID, "subscription id (a GUID like 00000000-0000-0000-0000-000000000000)");
    setup.requireValid();

    URI arm = endpoint != null ? endpoint : ArmClients.DEFAULT_ENDPOINT;
    SSLContext trust = TrustStores.fromSystemProperties();
    BoundedAnswers bounds = BoundedAnswers.of(config);
    ArmClients clients = ArmClients.create(arm, subscription, new ArmHttp(trust, bounds,
        tokens(config, trust, bounds, imdsEndpoint != null ? imdsEndpoint : Imds.DEFAULT_ENDPOINT),
        ArmProxies.fromSettings(config.environment())));
    String armScope = arm + "|" + subscription;
    SelfIdentity identity = SelfIdentity.cached(imds::resourceId);
    AzureMemberSource source = new AzureMemberSource(clients,
        new AzureMemberSource.Scope(armScope, rg, scaleSet),
        tagMatcher(config), AddressType.parse(config.get(AzureProperties.ADDRESS)), config.get(CloudProperties.TIMEOUT),
        new SkuAccelerators(clients, armScope), identity.askedWhileListing(config));
    return setup.resolver(source, identity, NAME, armScope,
        config.getenv("AZURE_CLIENT_ID"), config.getenv("AZURE_TENANT_ID"), config.getenv("AZURE_FEDERATED_TOKEN_FILE"));
  }

  private static TagMatcher tagMatcher(ResolverConfig config) {
    Set<String> names = new LinkedHashSet<>();
    if (config.get(CloudProperties.JOB_TAG) != null) {
      names.add(config.get(CloudProperties.JOB_TAG));
    }
    String order = config.get(CloudProperties.ORDER);
    if (order != null && order.trim().startsWith("tag:")) {
      names.add(order.trim().substring(4).trim());
    }
    return new TagMatcher(config.get(AzureProperties.TAGS), names,
        config.get(AzureProperties.TAG_NAMES_CASE_INSENSITIVE));
  }

  /**
   * A fixed {@code access-token} as it is (the user's to renew); else the managed identity's token from IMDS where
   * azure-identity's default chain would ask IMDS for it (an Azure VM without other identity settings), at {@code
   * AZURE_POD_IDENTITY_AUTHORITY_HOST} as the chain reads it, else at {@code imds}; else, and when IMDS gives none,
   * the chain itself, whose token requests are read within what is left of the deadline of the resolve that asked.
   */
  private static BearerTokens tokens(ResolverConfig config, SSLContext trust, BoundedAnswers bounds, URI imds) {
    String token = config.get(AzureProperties.ACCESS_TOKEN);
    if (token != null) {
      return BearerTokens.fixed(token);
    }
    String clientId = config.get(AzureProperties.CLIENT_ID);
    // Made only when used: the chain's classes are most of a cold resolve's (docs/benchmarks.md, "azure9").
    Supplier<BearerTokens> chain = () -> {
      AtomicReference<Deadline> resolveInProgress = new AtomicReference<>();
      return BearerTokens.of(IdentityCredentials.defaultChain(clientId,
          IdentityCredentials.tokenHttp(trust, bounds, resolveInProgress::get)), ArmClients.SCOPE, resolveInProgress);
    };
    UnaryOperator<String> settings = ImdsTokens.settings(config::getenv);
    // msal4j reads its IMDS address from the environment alone.
    Optional<URI> tokenEndpoint = ImdsTokens.endpoint(config::getenv, imds);
    if (!ImdsTokens.reachedBy(settings, clientId) || tokenEndpoint.isEmpty()) {
      return chain.get();
    }
    // The chain's managed identity is the client-id property's, else AZURE_CLIENT_ID's (DefaultAzureCredentialBuilder).
    return ImdsTokens.of(tokenEndpoint.get(), clientId != null ? clientId : settings.apply("AZURE_CLIENT_ID"),
        ArmClients.SCOPE, bounds, chain);
  }
}
