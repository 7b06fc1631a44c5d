package io.clusterresolver.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.BearerTokenAuthenticationPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.http.rest.PagedIterable;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.PagedResponseBase;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.util.Context;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.json.JsonToken;
import com.azure.json.ReadValueCallback;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * The Resource Manager reads a resolve makes, as GETs on one HTTP pipeline: the JDK HTTP client with
 * bounded answers ({@link BoundedHttpClient}), the {@link DeadlinePolicy} and the bearer token, and no
 * retry policy (the kit's {@code CloudApi} retries each call, so nothing retries twice). The listings'
 * items are streamed with azure-json's reader into {@link ArmResources}' records of the fields a resolve
 * uses (Resource SKUs too); the scale set into the SDK's own model with its generated {@code fromJson}.
 *
 * <p>Why not the SDK's generated {@code ComputeManagementClient} and {@code NetworkManagementClient}:
 * building one builds a {@code RestProxy} (a dynamic proxy and the reflective parse of every method's
 * annotations) for each of their 40 and 120 operation groups, about 1,000 classes and a third of a cold
 * resolve's CPU (docs/benchmarks.md, issue 23), for the eight listings used here. The paths, API versions
 * and query parameters are those the generated clients of the SDK versions in the pom send.
 */
final class ArmClients {

  /** Resource Manager's token scope (the fixed token of {@code access-token} ignores it). */
  static final String SCOPE = "https://management.azure.com/.default";
  static final URI DEFAULT_ENDPOINT = URI.create("https://management.azure.com");

  /** The API versions of azure-resourcemanager-compute 2.55 and -network 2.57 for these operations. */
  private static final String COMPUTE = "2025-04-01";
  private static final String SKUS = "2021-07-01";
  private static final String NETWORK = "2025-03-01";
  private static final String SCALE_SET_NETWORK = "2018-10-01";

  /** Context key of what to run when a call's 200 answer has arrived, before its body is read. */
  private static final String ON_ANSWER = "clusterresolver-arm-on-answer";

  private final HttpPipeline pipeline;
  /** {@code https://host/subscriptions/<id>}. */
  private final String subscription;

  private ArmClients(HttpPipeline pipeline, String subscription) {
    this.pipeline = pipeline;
    this.subscription = subscription;
  }

  /**
   * @param ssl the TLS context to trust the endpoint with, or {@code null} for the JVM's default
   * @param deadlines the pipeline's deadline policy (shared with the token requests' client)
   * @param timeout the overall deadline, also the longest a single response may take
   * @param limit how much of each answer is read
   */
  static ArmClients create(URI endpoint, String subscription, TokenCredential credential, SSLContext ssl,
      DeadlinePolicy deadlines, Duration timeout, AnswerLimit limit) {
    HttpClient http = BoundedHttpClient.overJdk(ssl, timeout, limit);
    HttpPipeline pipeline = new HttpPipelineBuilder()
        .httpClient(http)
        .policies(new UserAgentPolicy("cluster-resolver-azure"), deadlines,
            new BearerTokenAuthenticationPolicy(credential, SCOPE))
        .build();
    String host = endpoint.toString().replaceAll("/+$", "");
    return new ArmClients(pipeline, host + "/subscriptions/" + segment(subscription));
  }

  /**
   * {@code context}, running {@code onAnswer} on the caller's thread as each 200 answer of its calls
   * arrives (status and headers in, the body not yet read): the connection is up by then.
   */
  static Context onAnswer(Context context, Runnable onAnswer) {
    return context.addData(ON_ANSWER, onAnswer);
  }

  /** VirtualMachines.ListByResourceGroup, {@code $expand=instanceView} when asked. */
  PagedIterable<ArmResources.Vm> virtualMachines(String resourceGroup, String filter, boolean instanceView,
      Context context) {
    return list(group(resourceGroup) + "/providers/Microsoft.Compute/virtualMachines?api-version=" + COMPUTE
        + query("$filter", filter) + (instanceView ? "&$expand=instanceView" : ""), ArmResources.Vm::read,
        context);
  }

  /** VirtualMachines.ListAll with {@code statusOnly=true}: the subscription's VMs with their power state. */
  PagedIterable<ArmResources.Vm> virtualMachinesWithStatus(String filter, Context context) {
    return list(subscription + "/providers/Microsoft.Compute/virtualMachines?api-version=" + COMPUTE
        + "&statusOnly=true" + query("$filter", filter), ArmResources.Vm::read, context);
  }

  /** VirtualMachineScaleSetVMs.List with {@code $expand=instanceView}. */
  PagedIterable<ArmResources.ScaleSetVm> scaleSetVms(String resourceGroup, String scaleSet, Context context) {
    return list(scaleSetPath(resourceGroup, scaleSet) + "/virtualMachines?api-version=" + COMPUTE
        + "&$expand=instanceView", ArmResources.ScaleSetVm::read, context);
  }

  /** VirtualMachineScaleSets.Get. */
  VirtualMachineScaleSetInner scaleSet(String resourceGroup, String scaleSet, Context context) {
    return get(scaleSetPath(resourceGroup, scaleSet) + "?api-version=" + COMPUTE, context, false,
        (json, response) -> VirtualMachineScaleSetInner.fromJson(json));
  }

  /** ResourceSkus.List with a {@code $filter}. */
  PagedIterable<ArmResources.Sku> resourceSkus(String filter, Context context) {
    return list(subscription + "/providers/Microsoft.Compute/skus?api-version=" + SKUS + query("$filter", filter),
        ArmResources.Sku::read, context);
  }

  /** NetworkInterfaces.ListByResourceGroup, or NetworkInterfaces.ListAll when {@code resourceGroup} is null. */
  PagedIterable<ArmResources.NetworkInterface> networkInterfaces(String resourceGroup, Context context) {
    return list(group(resourceGroup) + "/providers/Microsoft.Network/networkInterfaces?api-version=" + NETWORK,
        ArmResources.NetworkInterface::read, context);
  }

  /** NetworkInterfaces.ListVirtualMachineScaleSetNetworkInterfaces. */
  PagedIterable<ArmResources.NetworkInterface> scaleSetNetworkInterfaces(String resourceGroup, String scaleSet,
      Context context) {
    // The generated client's path has this lower-case "microsoft.Compute" (ARM matches it case-insensitively).
    return list(group(resourceGroup) + "/providers/microsoft.Compute/virtualMachineScaleSets/" + segment(scaleSet)
        + "/networkInterfaces?api-version=" + SCALE_SET_NETWORK, ArmResources.NetworkInterface::read, context);
  }

  /** PublicIPAddresses.ListByResourceGroup, or PublicIPAddresses.ListAll when {@code resourceGroup} is null. */
  PagedIterable<ArmResources.PublicIp> publicIpAddresses(String resourceGroup, Context context) {
    return list(group(resourceGroup) + "/providers/Microsoft.Network/publicIPAddresses?api-version=" + NETWORK,
        ArmResources.PublicIp::read, context);
  }

  /** PublicIPAddresses.ListVirtualMachineScaleSetPublicIPAddresses. */
  PagedIterable<ArmResources.PublicIp> scaleSetPublicIpAddresses(String resourceGroup, String scaleSet,
      Context context) {
    return list(scaleSetPath(resourceGroup, scaleSet) + "/publicipaddresses?api-version=" + SCALE_SET_NETWORK,
        ArmResources.PublicIp::read, context);
  }

  private String group(String resourceGroup) {
    return resourceGroup == null ? subscription : subscription + "/resourceGroups/" + segment(resourceGroup);
  }

  private String scaleSetPath(String resourceGroup, String scaleSet) {
    return group(resourceGroup) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + segment(scaleSet);
  }

  /** A listing whose first page is {@code url} and whose next pages are their {@code nextLink}, verbatim. */
  private <T> PagedIterable<T> list(String url, ReadValueCallback<JsonReader, T> item, Context context) {
    Reader<PagedResponse<T>> page = (json, response) -> page(json, item, response);
    return new PagedIterable<>(() -> get(url, context, true, page), nextLink -> get(nextLink, context, true, page));
  }

  /**
   * One GET: the answer read by {@code read} when it is a 200, else the {@link ManagementException} the SDK throws;
   * a successful answer to a {@code list} call must be one ({@link ArmListAnswer}).
   */
  private <T> T get(String url, Context context, boolean list, Reader<T> read) {
    // gzip: a page of 100 VMs is about 160 KB of JSON that compresses many times over: that much less
    // to decrypt and carry through the HTTP client (BoundedHttpClient inflates it, under the limit).
    HttpRequest request = new HttpRequest(HttpMethod.GET, url).setHeader(HttpHeaderName.ACCEPT, "application/json")
        .setHeader(HttpHeaderName.ACCEPT_ENCODING, "gzip");
    try (HttpResponse response = pipeline.sendSync(request, context)) {
      if (response.getStatusCode() == 200) {
        context.getData(ON_ANSWER).ifPresent(onAnswer -> ((Runnable) onAnswer).run());
      }
      // Not getBodyAsBinaryData(): BinaryData's class initialiser builds azure-core's Jackson serializer
      // (an ObjectMapper with its modules: about 500 classes) that nothing here uses.
      byte[] body = body(response);
      if (list && response.getStatusCode() / 100 == 2) {
        ArmListAnswer.require(body, BoundedAnswers.origin(BoundedHttpClient.uri(response.getRequest())));
      }
      if (response.getStatusCode() != 200) {
        throw failure(response, body);
      }
      try (JsonReader json = JsonProviders.createReader(body)) {
        return read.read(json, response);
      } catch (IOException | RuntimeException e) {
        throw new HttpResponseException("HTTP response has a malformed body: " + e.getMessage(), response, e);
      }
    }
  }

  private static byte[] body(HttpResponse response) {
    try {
      return BoundedHttpClient.bytesOf(response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What the generated clients throw for any other status: ARM's {@code {"error":{...}}} as the value. */
  private static ManagementException failure(HttpResponse response, byte[] body) {
    String text = body.length == 0 ? "(empty body)" : "\"" + new String(body, StandardCharsets.UTF_8) + "\"";
    ManagementError error = null;
    if (body.length > 0) {
      try (JsonReader json = JsonProviders.createReader(body)) {
        error = ManagementError.fromJson(json);
      } catch (IOException | RuntimeException e) {
        // not ARM's error object (a proxy's page): the status and the text say what happened
      }
    }
    return new ManagementException("Status code " + response.getStatusCode() + ", " + text, response, error);
  }

  /** One page: the {@code value} array and the {@code nextLink}. */
  private static <T> PagedResponse<T> page(JsonReader json, ReadValueCallback<JsonReader, T> item,
      HttpResponse response) throws IOException {
    List<T> items = new ArrayList<>();
    String next = null;
    if (json.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("not a JSON object");
    }
    while (json.nextToken() == JsonToken.FIELD_NAME) {
      String field = json.getFieldName();
      json.nextToken();
      if ("value".equals(field)) {
        List<T> read = json.readArray(item);
        if (read != null) {
          read.removeIf(Objects::isNull); // a null in the list (which ARM does not send) is no resource
          items = read;
        }
      } else if ("nextLink".equals(field)) {
        next = json.getString();
      } else {
        json.skipChildren();
      }
    }
    return new PagedResponseBase<>(response.getRequest(), response.getStatusCode(), response.getHeaders(), items,
        next == null || next.isEmpty() ? null : next, null);
  }

  /** Reads a 200's body. */
  @FunctionalInterface
  private interface Reader<T> {
    T read(JsonReader json, HttpResponse response) throws IOException;
  }

  /** A path segment or query value, percent-encoded ({@code %20} for a space). */
  private static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String query(String name, String value) {
    return value == null ? "" : "&" + name + "=" + segment(value);
  }
}
