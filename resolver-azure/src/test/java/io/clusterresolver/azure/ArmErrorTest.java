package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.management.exception.ManagementError;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import io.clusterresolver.testkit.AzureScenarios;
import io.clusterresolver.testkit.SimulatedAzure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ArmError} against an independent reading of the same bytes: azure-core-management's own {@link
 * ManagementError#fromJson}, which the generated clients' {@code ManagementException} carried. Both read every
 * body, or both refuse it with the same exception.
 */
class ArmErrorTest {

  @Test
  void theSimulationsErrorAnswers() throws Exception {
    try (SimulatedAzure azure = AzureScenarios.mixedResourceGroup(SimulatedAzure.start(), 3)) {
      HttpClient http = HttpClient.newBuilder().sslContext(azure.sslContext()).build();
      String base = azure.endpoint().toString().replaceAll("/+$", "") + "/subscriptions/" + azure.subscription();
      int compared = 0;
      for (String path : List.of("/resourceGroups/no-such-rg/providers/Microsoft.Compute/virtualMachines",
          "/resourceGroups/" + AzureScenarios.MIXED_RG + "/providers/Microsoft.Compute/virtualMachineScaleSets/none",
          "unauthenticated")) {
        boolean bearer = !"unauthenticated".equals(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + (bearer ? path
            : "/providers/Microsoft.Compute/virtualMachines") + "?api-version=2025-04-01"));
        if (bearer) {
          request.header("Authorization", "Bearer " + SimulatedAzure.ACCESS_TOKEN);
        }
        HttpResponse<byte[]> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(answer.statusCode()).as(path).isEqualTo(bearer ? 404 : 401);
        ArmError ours = compare(answer.body());
        assertThat(ours.code()).as(path).isNotBlank();
        assertThat(ours.message()).as(path).isNotBlank();
        compared++;
      }
      assertThat(compared).isEqualTo(3);
    }
  }

  @Test
  void wrappedAndNotWrapped() throws Exception {
    ArmError wrapped = compare("{\"error\":{\"code\":\"AuthorizationFailed\",\"message\":\"no read\",\"target\":\"vm\","
        + "\"details\":[{\"code\":\"D1\",\"message\":\"m1\"},null,{\"error\":{\"code\":\"D2\"}}],"
        + "\"additionalInfo\":[{\"type\":\"PolicyViolation\",\"info\":{\"a\":[1,{\"b\":null}]}},null]}}");
    assertThat(wrapped.code()).isEqualTo("AuthorizationFailed");
    assertThat(wrapped.details()).hasSize(3);
    compare("{\"code\":\"Throttled\",\"message\":\"slow down\"}");
    compare("{\"CODE\":\"Upper\",\"Message\":\"case\",\"TARGET\":\"t\",\"Details\":[]}");
    compare("{\"error\":{\"CODE\":\"Upper\",\"mEssage\":\"case\"}}");
    compare("{\"Error\":{\"code\":\"notWrapped\"},\"code\":\"outer\"}"); // "error" is matched case-sensitively
    compare("{\"requestId\":\"r\",\"details\":[],\"error\":{\"code\":\"late\",\"message\":\"after others\"}}");
    compare("{\"error\":{\"code\":\"first\"},\"error\":{\"code\":\"second\"}}");
    compare("{\"code\":\"outer\",\"error\":{\"code\":\"inner\"}}");
    compare("{\"error\":{\"code\":\"x\",\"innererror\":{\"code\":\"y\",\"message\":\"z\"},\"extra\":[1,2]}}");
    compare("{}");
    compare("{\"error\":{}}");
    compare("{\"error\":null}");
    compare("null");
    compare("{\"error\":{\"code\":null,\"message\":null,\"details\":null,\"additionalInfo\":null}}");
  }

  @Test
  void shapesEitherReadingMayRefuse() throws Exception {
    for (String body : List.of("{\"error\":\"a string\"}", "{\"error\":[1]}", "{\"error\":42}",
        "{\"error\":{\"details\":[1]}}", "{\"error\":{\"details\":{}}}", "{\"error\":{\"details\":\"x\"}}",
        "{\"error\":{\"additionalInfo\":[\"x\"]}}", "{\"error\":{\"additionalInfo\":{}}}",
        "{\"error\":{\"additionalInfo\":[{\"type\":{\"nested\":1},\"info\":2}]}}",
        "{\"error\":{\"code\":42,\"message\":true}}", "{\"error\":{\"code\":{\"a\":1},\"message\":\"m\"}}",
        "{\"code\":[\"a\"],\"message\":\"m\"}", "{\"details\":[{\"error\":5}]}",
        "[{\"error\":{\"code\":\"x\"}}]", "\"text\"", "12", "<html><body>Bad gateway</body></html>",
        "{\"error\":{\"code\":\"trunc", "{\"error\":{\"code\":\"x\"}", "{\"error\":{\"code\":\"x\"}} trailing", "")) {
      compare(body);
    }
  }

  private static ArmError compare(String body) throws IOException {
    return compare(body.getBytes(StandardCharsets.UTF_8));
  }

  /** Both readings of {@code body}: the same values, or the same exception; ours returned (or null). */
  private static ArmError compare(byte[] body) throws IOException {
    ManagementError sdk = null;
    Exception sdkFailure = null;
    try (JsonReader json = JsonProviders.createReader(body)) {
      sdk = ManagementError.fromJson(json);
    } catch (IOException | RuntimeException e) {
      sdkFailure = e;
    }
    ArmError ours = null;
    Exception ourFailure = null;
    try (JsonReader json = JsonProviders.createReader(body)) {
      ours = ArmError.read(json);
    } catch (IOException | RuntimeException e) {
      ourFailure = e;
    }
    String what = new String(body, StandardCharsets.UTF_8);
    if (sdkFailure != null || ourFailure != null) {
      assertThat(ourFailure).as(what).isNotNull();
      assertThat(sdkFailure).as(what).isNotNull();
      assertThat(ourFailure.getClass()).as(what).isEqualTo(sdkFailure.getClass());
      return null;
    }
    same(sdk, ours, what);
    return ours;
  }

  private static void same(ManagementError sdk, ArmError ours, String what) {
    if (sdk == null) {
      assertThat(ours).as(what).isNull();
      return;
    }
    assertThat(ours).as(what).isNotNull();
    assertThat(ours.code()).as(what).isEqualTo(sdk.getCode());
    assertThat(ours.message()).as(what).isEqualTo(sdk.getMessage());
    assertThat(ours.target()).as(what).isEqualTo(sdk.getTarget());
    List<? extends ManagementError> details = sdk.getDetails();
    if (details == null || ours.details() == null) {
      // the SDK's getter answers an empty list for details not sent
      assertThat(ours.details() == null ? List.of() : ours.details()).as(what).hasSameSizeAs(details == null ? List.of() : details);
      return;
    }
    assertThat(ours.details()).as(what).hasSameSizeAs(details);
    for (int i = 0; i < details.size(); i++) {
      same(details.get(i), ours.details().get(i), what);
    }
  }
}
