package io.clusterresolver.gce;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedGce;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Properties pointing the provider at a simulation, and a service-account key whose token_uri is the simulation. */
final class GceTestSupport {

  private GceTestSupport() {}

  static Map<String, String> properties(SimulatedGce gce) {
    Map<String, String> p = new LinkedHashMap<>(gce.providerProperties());
    // The provider's default: a cold JVM's first resolve on a loaded machine is slow; a test of the deadline sets one.
    p.put("clusterresolver.gce.timeout", "30s");
    return p;
  }

  static ClusterResolver resolver(SimulatedGce gce, String... keyValues) {
    Map<String, String> p = properties(gce);
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.gce." + keyValues[i], keyValues[i + 1]);
    }
    return ClusterResolvers.create("gce", p, Map.of());
  }

  /** A service-account JSON key file (a fresh RSA key) whose token_uri is the simulation's token endpoint. */
  static final class KeyFile {
    final Path path;
    final String privateKeyBase64;

    KeyFile(Path dir, SimulatedGce gce) {
      try {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
        privateKeyBase64 = Base64.getEncoder().encodeToString(pkcs8);
        String pem = ("-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes())
            .encodeToString(pkcs8) + "\n-----END PRIVATE KEY-----\n").replace("\n", "\\n");
        String json = "{\n  \"type\": \"service_account\",\n  \"project_id\": \"" + gce.project() + "\",\n"
            + "  \"private_key_id\": \"0123456789abcdef0123456789abcdef01234567\",\n"
            + "  \"private_key\": \"" + pem + "\",\n"
            + "  \"client_email\": \"resolver@" + gce.project() + ".iam.gserviceaccount.com\",\n"
            + "  \"client_id\": \"100000000000000000001\",\n"
            + "  \"token_uri\": \"" + gce.tokenEndpoint() + "\"\n}\n";
        path = dir.resolve("service-account.json");
        Files.writeString(path, json);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    /** A piece of the private key that must never be printed (the base64 of the key's middle). */
    String secretFragment() {
      return privateKeyBase64.substring(200, 264);
    }
  }
}
