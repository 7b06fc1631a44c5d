package io.clusterresolver.google;

/**
 * Google Cloud resource names ({@code projects/p/locations/us-central2-b/nodes/n}) and the resource URLs Compute Engine
 * writes ({@code https://www.googleapis.com/compute/v1/projects/p/zones/us-east1-b/machineTypes/a2-highgpu-1g}):
 * collection and id segments separated by {@code /}, the resource's own id last.
 */
public final class ResourceNames {

  private ResourceNames() {}

  /**
   * The last segment of a resource name or URL: the resource's id ({@code a2-highgpu-1g}, a zone, a node's short
   * name); the whole text when it has no {@code /}, empty when it ends in one.
   */
  public static String lastSegment(String name) {
    return name.substring(name.lastIndexOf('/') + 1);
  }
}
