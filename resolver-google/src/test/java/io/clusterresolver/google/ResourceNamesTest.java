package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The resource id at the end of a name, in the forms Google's APIs and metadata server write (their references). */
class ResourceNamesTest {

  @Test
  void theIdIsTheLastSegmentOfAUrlANameOrAMetadataPath() {
    assertThat(ResourceNames.lastSegment(
        "https://www.googleapis.com/compute/v1/projects/my-project/zones/us-east1-b/machineTypes/a2-highgpu-1g"))
        .isEqualTo("a2-highgpu-1g");
    assertThat(ResourceNames.lastSegment("projects/my-project/locations/us-central2-b/nodes/my-pod"))
        .isEqualTo("my-pod");
    assertThat(ResourceNames.lastSegment("projects/123456789012/zones/us-central1-a")).isEqualTo("us-central1-a");
  }

  @Test
  void aNameWithoutSlashIsItsOwnIdAndATrailingSlashLeavesNone() {
    assertThat(ResourceNames.lastSegment("us-central1-a")).isEqualTo("us-central1-a");
    assertThat(ResourceNames.lastSegment("projects/p/zones/")).isEmpty();
  }
}
