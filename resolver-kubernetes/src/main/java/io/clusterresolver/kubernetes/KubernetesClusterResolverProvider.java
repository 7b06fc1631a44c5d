package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.spi.ResolverContext;

/**
 * The {@code kubernetes} provider: the Running and Ready pods of one namespace that match a label
 * selector, as a cluster. Every resolve lists them afresh (every page); StatefulSet ordinals and
 * Indexed Job completion indices are the task indices; this process finds its own task by its pod
 * name ({@code POD_NAME}, else {@code HOSTNAME}). Properties: {@code clusterresolver.kubernetes.*},
 * see the module README.
 */
public final class KubernetesClusterResolverProvider extends CloudResolverProvider {

  /** The provider's name. */
  public static final String NAME = "kubernetes";

  /** Above the clouds a pod runs on (a pod on EC2 is in a Kubernetes cluster first), below TF_CONFIG and Slurm. */
  private static final int PRIORITY = 100;

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public KubernetesClusterResolverProvider() {
    // A lambda: a method reference would load KubernetesResolverFactory, and verifying it the SDK's classes.
    super(NAME, PRIORITY, KubernetesProperties.DECLARATIONS, config -> KubernetesResolverFactory.create(config));
  }

  /** Whether {@code KUBERNETES_SERVICE_HOST} is set, as it is in every pod; touches no file or network. */
  @Override
  protected boolean detect(ResolverContext context) {
    return context.getenv("KUBERNETES_SERVICE_HOST").filter(h -> !h.isBlank()).isPresent();
  }
}
