package io.clusterresolver.gce;

import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.google.GoogleProperties;
import io.clusterresolver.spi.ConfigProperty;
import java.util.List;
import java.util.Map;

/** Every property the {@code gce} provider reads: {@code clusterresolver.gce.<name>}. */
final class GceProperties {

  /** Instance states of Compute Engine ({@code Instance.status}). */
  static final List<String> STATUSES = List.of("PROVISIONING", "STAGING", "RUNNING", "STOPPING", "STOPPED",
      "SUSPENDING", "SUSPENDED", "REPAIRING", "TERMINATED", "PENDING_STOP");

  static final ConfigProperty<String> PROJECT = ConfigProperty.string("project")
      .description("Project id; default: GOOGLE_CLOUD_PROJECT, then the metadata server's project")
      .build();
  static final ConfigProperty<List<String>> ZONES = ConfigProperty.list("zones")
      .description("Only these zones, like us-east1-b,us-east1-c (one instances.list per zone); default: every"
          + " zone in one instances.aggregatedList")
      .build();
  static final ConfigProperty<Map<String, String>> LABELS = ConfigProperty.map("labels")
      .description("Only instances with all these labels, like k1=v1,k2=v2 (exact key and value)")
      .build();
  static final ConfigProperty<String> INSTANCE_GROUP = ConfigProperty.string("instance-group")
      .description("Only members of this managed or unmanaged zonal instance group (its zone: zones, else this"
          + " instance's zone)")
      .build();
  static final ConfigProperty<List<String>> STATES = ConfigProperty.list("states")
      .defaultValue("RUNNING")
      .description("Only instances in these states (" + String.join(", ", STATUSES) + ")")
      .build();
  static final ConfigProperty<String> ADDRESS = ConfigProperty.string("address")
      .defaultValue("private-ipv4")
      .oneOf("private-ipv4", "public-ipv4", "ipv6", "internal", "external")
      .description("Address tasks listen on: nic0's networkIP (private-ipv4, alias internal), its access config's"
          + " natIP (public-ipv4, alias external) or its IPv6 address (ipv6); members without it are left out"
          + " (and logged)")
      .build();
  static final ConfigProperty<String> JOB_LABEL = CloudProperties.jobLabel(
      "Label whose value is each instance's job; instances without it are left out");
  static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint("Compute Engine API endpoint override (a proxy, an"
      + " emulator, a simulation); default https://compute.googleapis.com");
  static final ConfigProperty<String> METADATA_ENDPOINT = CloudProperties.endpoint("metadata-endpoint",
      "Metadata server; default: GCE_METADATA_HOST, then http://metadata.google.internal");
  static final ConfigProperty<String> CREDENTIALS = GoogleProperties.CREDENTIALS;

  /** Compute Engine's word for the job tag is a label. */
  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(PROJECT, ZONES, LABELS,
      INSTANCE_GROUP, STATES, ADDRESS).jobTag(JOB_LABEL)
      .tasksPerMember(CloudProperties.tasksPerMember("tasks-per-instance"))
      .then(ENDPOINT, METADATA_ENDPOINT, CREDENTIALS).build();

  private GceProperties() {}
}
