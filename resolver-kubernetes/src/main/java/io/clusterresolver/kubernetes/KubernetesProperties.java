package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.spi.ConfigProperty;

/** Every property the {@code kubernetes} provider reads: {@code clusterresolver.kubernetes.<name>}. */
final class KubernetesProperties {

  /** The service account's files inside a pod (token, ca.crt, namespace). */
  static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

  static final ConfigProperty<String> NAMESPACE = ConfigProperty.string("namespace")
      .description("Namespace whose pods are listed; default: the service account's namespace file, then the"
          + " kubeconfig context's namespace, then default")
      .build();
  static final ConfigProperty<String> SELECTOR = ConfigProperty.string("selector")
      .required()
      .description("Label selector of the cluster's pods, like app=trainer,role in (worker,ps)")
      .build();
  static final ConfigProperty<String> JOB_LABEL = CloudProperties.jobLabel("Label whose value is each pod's job (tasks of each"
      + " job numbered 0, 1, ... in pod order); pods without it are left out");
  static final ConfigProperty<String> ADDRESS = CloudProperties.address(AddressType.PRIVATE_IPV4,
      AddressType.PRIVATE_IPV4, AddressType.IPV6);
  static final ConfigProperty<String> PORT_NAME = ConfigProperty.string("port-name")
      .description("Name of a container port of each pod to use instead of port; pods without it are left out")
      .build();
  static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint("API server URL; default:"
      + " https://KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT in a pod, else the kubeconfig's server");
  static final ConfigProperty<String> TOKEN_FILE = ConfigProperty.string("token-file")
      .description("Bearer token file, read again on every resolve (rotated tokens are picked up); default "
          + SERVICE_ACCOUNT_DIR + "/token in a pod")
      .build();
  static final ConfigProperty<String> CA_FILE = ConfigProperty.string("ca-file")
      .description("PEM file of the API server's certificate authority; default " + SERVICE_ACCOUNT_DIR
          + "/ca.crt in a pod")
      .build();
  static final ConfigProperty<String> KUBECONFIG = ConfigProperty.string("kubeconfig")
      .description("Kubeconfig file to use outside a pod (its current context); default: KUBECONFIG, then"
          + " ~/.kube/config")
      .build();

  /** Kubernetes' word for the job tag is a label; a pod is one task, its ordinal (if any) its index. */
  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(NAMESPACE, SELECTOR, ADDRESS,
      PORT_NAME).jobTag(JOB_LABEL).indexByOrdinal().then(ENDPOINT, TOKEN_FILE, CA_FILE, KUBECONFIG).build();

  private KubernetesProperties() {}
}
