package io.clusterresolver.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.TimeUnit;

/**
 * Test certificates generated at test time with the JDK's keytool: self-signed, one per task
 * identity (subject {@code CN=<task name>}), valid for 127.0.0.1 and localhost. No private key is
 * checked in.
 */
final class TestCerts {
  static final char[] PASSWORD = "test-only".toCharArray();

  private TestCerts() {}

  /** Generates a PKCS12 key store holding one key pair whose certificate names {@code task}. */
  static KeyStore generate(Path dir, String fileName, String task) throws Exception {
    Path file = dir.resolve(fileName + ".p12");
    String keytool = System.getProperty("java.home") + "/bin/keytool";
    Process process =
        new ProcessBuilder(
                keytool, "-J-XX:TieredStopAtLevel=1", "-genkeypair", "-alias", "task",
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-dname", "CN=" + task, "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
            .redirectErrorStream(true)
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool failed: "
          + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
    return KeyStore.getInstance(file.toFile(), PASSWORD);
  }

  /** A trust store holding the certificates of the given key stores. */
  static KeyStore trusting(KeyStore... stores) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    int i = 0;
    for (KeyStore store : stores) {
      Certificate cert = store.getCertificate("task");
      trust.setCertificateEntry("trusted-" + i++, cert);
    }
    return trust;
  }
}
