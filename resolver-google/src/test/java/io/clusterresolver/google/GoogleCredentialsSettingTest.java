package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.ServiceAccountCredentials;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The credentials property as the gce and tpu READMEs document it: none, a key file, or unset for ADC. */
class GoogleCredentialsSettingTest {

  private static final ConfigProperty<String> CREDENTIALS = ConfigProperty.string("credentials").secret()
      .description("test").build();
  private static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/compute.readonly");

  private static CredentialsProvider read(String value, List<String> problems) {
    Map<String, String> p = value == null ? Map.of() : Map.of("clusterresolver.gce.credentials", value);
    ResolverConfig config = ResolverConfig.resolve("gce", List.of(CREDENTIALS), PropertySources.of(p, Map.of(), Map.of(), Map.of()));
    return GoogleCredentialsSetting.read(config, CREDENTIALS, SCOPES, problems);
  }

  @Test
  void noneSendsNoTokenAndUnsetIsApplicationDefaultCredentialsLoadedLater() {
    List<String> problems = new ArrayList<>();
    assertThat(read("none", problems)).isInstanceOf(NoCredentialsProvider.class);
    assertThat(read(null, problems)).isInstanceOf(ApplicationDefault.class);
    assertThat(((ApplicationDefault) read(null, problems)).scopes()).isEqualTo(SCOPES);
    assertThat(problems).isEmpty();
  }

  @Test
  void aKeyFileIsReadNowAndScoped(@TempDir Path dir) throws Exception {
    Path key = dir.resolve("key.json");
    var pair = KeyPairGenerator.getInstance("RSA");
    pair.initialize(2048);
    String pem = "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(pair.generateKeyPair().getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n";
    // The key file format of cloud.google.com/iam/docs/keys-create-delete.
    Files.writeString(key, "{\"type\": \"service_account\", \"project_id\": \"p\", \"private_key_id\": \"k1\","
        + " \"private_key\": \"" + pem.replace("\n", "\\n") + "\", \"client_email\": \"r@p.iam.gserviceaccount.com\","
        + " \"client_id\": \"1\", \"token_uri\": \"http://127.0.0.1:1/token\"}");
    List<String> problems = new ArrayList<>();
    CredentialsProvider provider = read(key.toString(), problems);
    assertThat(problems).isEmpty();
    assertThat(provider).isInstanceOf(FixedCredentialsProvider.class);
    ServiceAccountCredentials credentials = (ServiceAccountCredentials) provider.getCredentials();
    assertThat(credentials.getClientEmail()).isEqualTo("r@p.iam.gserviceaccount.com");
    assertThat(credentials.getScopes()).containsExactlyElementsOf(SCOPES);
  }

  @Test
  void aMissingOrWrongFileIsAProblemNamingTheKeyNotTheContent(@TempDir Path dir) throws IOException {
    List<String> problems = new ArrayList<>();
    assertThat(read("/no/such/key.json", problems)).isNull();
    Path wrong = dir.resolve("wrong.json");
    Files.writeString(wrong, "{\"type\": \"service_account\", \"private_key\": \"s3cr3t-not-a-key\"}");
    assertThat(read(wrong.toString(), problems)).isNull();
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).startsWith("clusterresolver.gce.credentials: '/no/such/key.json' is not a readable file");
    assertThat(problems.get(1)).startsWith("clusterresolver.gce.credentials: '" + wrong + "' is not a service-account"
        + " JSON key file").doesNotContain("s3cr3t");
  }

  @Test
  void aClientThatCannotLoadItsCredentialsSaysSoInOneLine() {
    GoogleRest.CredentialsUnavailable e = org.assertj.core.api.Assertions.catchThrowableOfType(
        GoogleRest.CredentialsUnavailable.class, () -> GoogleRest.create(() -> {
          throw new IOException("Your default credentials were not found.\nTo set up Application Default Credentials");
        }));
    assertThat(e).hasMessage("IOException: Your default credentials were not found.");
    assertThat(GoogleRest.<String>create(() -> "client")).isEqualTo("client");
  }
}
