package io.clusterresolver.aws;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedEc2;
import java.util.LinkedHashMap;
import java.util.Map;

/** Properties pointing the provider at a simulation, with explicit region and static keys. */
final class AwsTestSupport {

  static final String ACCESS_KEY = "AKIAEXAMPLESIMULATED";
  static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYSIMULATEDKEY";

  private AwsTestSupport() {}

  static Map<String, String> properties(SimulatedEc2 ec2) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.aws.region", "us-east-1");
    p.put("clusterresolver.aws.endpoint", ec2.endpoint().toString());
    p.put("clusterresolver.aws.imds-endpoint", ec2.imdsEndpoint().toString());
    p.put("clusterresolver.aws.access-key-id", ACCESS_KEY);
    p.put("clusterresolver.aws.secret-access-key", SECRET_KEY);
    return p;
  }

  static ClusterResolver resolver(SimulatedEc2 ec2, String... keyValues) {
    Map<String, String> p = properties(ec2);
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.aws." + keyValues[i], keyValues[i + 1]);
    }
    return ClusterResolvers.create("aws", p, Map.of());
  }

  /** Puts a system property back as a test found it ({@code null}: not set). */
  static void restoreProperty(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }
}
