package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedTpu;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;

/** Resolvers pointed at a simulation, and a service-account key file for it. */
final class TpuTestSupport {

  private TpuTestSupport() {}

  /** A resolver for {@code node} of the simulation's default project and zone; extra key/values after it. */
  static ClusterResolver resolver(SimulatedTpu tpu, String node, String... keyValues) {
    return resolver(tpu, node, Map.of(), keyValues);
  }

  static ClusterResolver resolver(SimulatedTpu tpu, String node, Map<String, String> environment, String... keyValues) {
    Map<String, String> p = new java.util.LinkedHashMap<>(tpu.providerProperties(node));
    if (node == null) {
      p.remove("clusterresolver.tpu.name");
    }
    for (int i = 0; i < keyValues.length; i += 2) {
      if (keyValues[i + 1] == null) {
        p.remove("clusterresolver.tpu." + keyValues[i]);
      } else {
        p.put("clusterresolver.tpu." + keyValues[i], keyValues[i + 1]);
      }
    }
    return ClusterResolvers.create("tpu", p, environment);
  }

  /** A service-account JSON key file whose token_uri is the simulation's token endpoint; returns the private key's PEM. */
  static String writeServiceAccountKey(SimulatedTpu tpu, Path file) throws IOException {
    KeyPair pair;
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      pair = generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    String pem = "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pair.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
    String json = "{\n  \"type\": \"service_account\",\n  \"project_id\": \"" + tpu.project() + "\",\n"
        + "  \"private_key_id\": \"0123456789abcdef0123456789abcdef01234567\",\n"
        + "  \"private_key\": \"" + pem.replace("\n", "\\n") + "\",\n"
        + "  \"client_email\": \"resolver@" + tpu.project() + ".iam.gserviceaccount.com\",\n"
        + "  \"client_id\": \"104000000000000000001\",\n"
        + "  \"token_uri\": \"" + tpu.tokenUri() + "\"\n}\n";
    Files.writeString(file, json);
    return pem;
  }
}
