package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.RequiredLabels;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.google.GoogleCredentialsSetting;
import io.clusterresolver.google.GoogleMetadata;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Builds the {@code gce} resolver: validation, credentials, the query and the layout. */
final class GceResolverFactory {

  /** Zone names: lower-case letters, digits and '-' (us-east1-b, us-south1-ai1b). */
  private static final Pattern ZONE = Pattern.compile("[a-z][-a-z0-9]*");
  /** Project ids: lower-case letters, digits and '-' (domain-scoped ones also '.' and ':'). */
  private static final Pattern PROJECT = Pattern.compile("[a-z][-a-z0-9.:]*");
  /** Label keys and values: lower-case letters, digits, '_' and '-' (keys start with a letter). */
  private static final Pattern LABEL_KEY = Pattern.compile("\\p{Ll}[\\p{Ll}\\p{Lo}\\p{N}_-]{0,62}");
  private static final Pattern LABEL_VALUE = Pattern.compile("[\\p{Ll}\\p{Lo}\\p{N}_-]{0,63}");
  private static final Pattern GROUP = Pattern.compile("[a-z]([-a-z0-9]{0,61}[a-z0-9])?");

  private GceResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    CloudResolverSetup setup = CloudResolverSetup.start(config, GceProperties.DECLARATIONS);
    List<String> problems = setup.problems();
    URI endpoint = setup.endpoint(GceProperties.ENDPOINT);
    URI metadataEndpoint = setup.endpoint(GceProperties.METADATA_ENDPOINT);
    GoogleMetadata metadata = new GoogleMetadata(GceClusterResolverProvider.NAME, GoogleMetadata.base(metadataEndpoint,
        config.getenv("GCE_METADATA_HOST")), Duration.ofSeconds(2), Duration.ofSeconds(2), MetadataClient.DEFAULT_MAX_ANSWER_BYTES);
    Duration timeout = config.get(CloudProperties.TIMEOUT);
    List<String> states = setup.knownValues(GceProperties.STATES, GceProperties.STATUSES, "an instance status",
        state -> state.trim().toUpperCase(Locale.ROOT));
    if (states.isEmpty() && problems.isEmpty()) {
      problems.add(config.key(GceProperties.STATES) + " is empty: give at least one status, like RUNNING");
    }
    List<String> zones = config.get(GceProperties.ZONES);
    zones.stream().filter(z -> !ZONE.matcher(z).matches()).forEach(z -> problems.add(config.key(GceProperties.ZONES)
        + ": '" + z + "' is not a zone name, like us-east1-b"));
    labels(config, problems);
    String group = config.get(GceProperties.INSTANCE_GROUP);
    if (group != null && !GROUP.matcher(group).matches()) {
      problems.add(config.key(GceProperties.INSTANCE_GROUP) + ": '" + group + "' is not an instance group name"
          + " (lower-case letters, digits and '-', starting with a letter)");
    }
    if (group != null && zones.size() > 1) {
      problems.add(config.key(GceProperties.INSTANCE_GROUP) + " is a zonal group: give its one zone in "
          + config.key(GceProperties.ZONES) + ", not " + zones.size());
    }
    CredentialsProvider credentials = GoogleCredentialsSetting.read(config, GceProperties.CREDENTIALS,
        List.of(ComputeCalls.SCOPE), problems);
    String project = setup.lookup(GceProperties.PROJECT, "project", "my-project")
        .orEnvironment("GOOGLE_CLOUD_PROJECT")
        .orMetadata("the metadata server", metadata::projectId)
        .matching(PROJECT, "project id (lower-case letters, digits and '-', starting with a letter, like my-project)");
    String groupZone = null;
    if (group != null && problems.isEmpty()) {
      groupZone = zones.isEmpty() ? metadata.zone().orElse(null) : zones.get(0);
      if (groupZone == null) {
        problems.add(config.key(GceProperties.INSTANCE_GROUP) + " needs the group's zone: set "
            + config.key(GceProperties.ZONES) + ", like us-east1-b");
      }
    }
    setup.requireValid();

    GceMemberSource.Query query = new GceMemberSource.Query(project, group != null ? List.of() : zones,
        new RequiredLabels(config.get(GceProperties.LABELS)), states, group, groupZone);
    ComputeCalls compute = new ComputeCalls(endpoint, credentials, AnswerLimit.of(config));
    SelfIdentity identity = SelfIdentity.cached(() -> metadata.instanceId().map(InstanceFacts::memberId));
    GceMemberSource source = new GceMemberSource(compute, query, address(config.get(GceProperties.ADDRESS)), timeout,
        endpoint != null ? endpoint.toString() : "compute.googleapis.com", identity.askedWhileListing(config));
    return setup.resolver(source, identity, "", project, groupZone, config.getenv("GOOGLE_APPLICATION_CREDENTIALS"));
  }

  /** {@code internal} and {@code external} are Compute Engine's words for the private and public IPv4. */
  static AddressType address(String configured) {
    switch (configured) {
      case "internal":
        return AddressType.PRIVATE_IPV4;
      case "external":
        return AddressType.PUBLIC_IPV4;
      default:
        return AddressType.parse(configured);
    }
  }

  private static void labels(ResolverConfig config, List<String> problems) {
    for (Map.Entry<String, String> label : config.get(GceProperties.LABELS).entrySet()) {
      if (!LABEL_KEY.matcher(label.getKey()).matches() || !LABEL_VALUE.matcher(label.getValue()).matches()) {
        problems.add(config.key(GceProperties.LABELS) + ": '" + label.getKey() + "=" + label.getValue() + "' is not a"
            + " Compute Engine label (lower-case letters, digits, '_' and '-'; keys start with a letter)");
      }
    }
  }
}
