package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.cloud.MalformedAnswerException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Resource Manager reads a resolve makes, as GETs sent by {@link ArmHttp} (the kit's {@code CloudHttp} on the
 * JDK's {@code HttpURLConnection}, bounded answers, the bearer token), each once (the kit's {@code CloudApi} retries
 * each call). The listings' items are read with jackson-core's streaming parser ({@link ArmJson}) into {@link
 * ArmResources}' records of the fields a resolve uses (Resource SKUs too) and the scale set; an error answer into the
 * {@link ArmAnswerException} the generated clients' {@code ManagementException} was, with ARM's error object read as
 * {@link ArmError} (as the SDK's {@code ManagementError} reads it).
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

  private final ArmHttp http;
  /** {@code https://host/subscriptions/<id>}. */
  private final String subscription;

  private ArmClients(ArmHttp http, String subscription) {
    this.http = http;
    this.subscription = subscription;
  }

  /** The reads of {@code subscription} at {@code endpoint}, sent by {@code http}. */
  static ArmClients create(URI endpoint, String subscription, ArmHttp http) {
    String host = endpoint.toString().replaceAll("/+$", "");
    return new ArmClients(http, host + "/subscriptions/" + segment(subscription));
  }

  /** One page of a listing: its items and the URL of the next page ({@code null} at the last). */
  record Page<T>(List<T> items, String nextLink) {}

  /** One listing, page by page. */
  @FunctionalInterface
  interface Listing<T> {
    /**
     * @param nextLink the page's URL as the last page gave it, or {@code null} for the first page
     * @param deadline the resolve's
     * @param onAnswer run as the page's 200 answer arrives, before its body is read
     */
    Page<T> page(String nextLink, Deadline deadline, Runnable onAnswer);
  }

  /** VirtualMachines.ListByResourceGroup, {@code $expand=instanceView} when asked. */
  Listing<ArmResources.Vm> virtualMachines(String resourceGroup, String filter, boolean instanceView) {
    return list(group(resourceGroup) + "/providers/Microsoft.Compute/virtualMachines?api-version=" + COMPUTE
        + query("$filter", filter) + (instanceView ? "&$expand=instanceView" : ""), ArmResources.Vm::read);
  }

  /** VirtualMachines.ListAll with {@code statusOnly=true}: the subscription's VMs with their power state. */
  Listing<ArmResources.Vm> virtualMachinesWithStatus(String filter) {
    return list(subscription + "/providers/Microsoft.Compute/virtualMachines?api-version=" + COMPUTE
        + "&statusOnly=true" + query("$filter", filter), ArmResources.Vm::read);
  }

  /** VirtualMachineScaleSetVMs.List with {@code $expand=instanceView}. */
  Listing<ArmResources.ScaleSetVm> scaleSetVms(String resourceGroup, String scaleSet) {
    return list(scaleSetPath(resourceGroup, scaleSet) + "/virtualMachines?api-version=" + COMPUTE
        + "&$expand=instanceView", ArmResources.ScaleSetVm::read);
  }

  /** VirtualMachineScaleSets.Get. */
  ArmResources.ScaleSet scaleSet(String resourceGroup, String scaleSet, Deadline deadline) {
    return get(scaleSetPath(resourceGroup, scaleSet) + "?api-version=" + COMPUTE, deadline, () -> { }, false,
        ArmResources.ScaleSet::read);
  }

  /** ResourceSkus.List with a {@code $filter}. */
  Listing<ArmResources.Sku> resourceSkus(String filter) {
    return list(subscription + "/providers/Microsoft.Compute/skus?api-version=" + SKUS + query("$filter", filter),
        ArmResources.Sku::read);
  }

  /** NetworkInterfaces.ListByResourceGroup, or NetworkInterfaces.ListAll when {@code resourceGroup} is null. */
  Listing<ArmResources.NetworkInterface> networkInterfaces(String resourceGroup) {
    return list(group(resourceGroup) + "/providers/Microsoft.Network/networkInterfaces?api-version=" + NETWORK,
        ArmResources.NetworkInterface::read);
  }

  /** NetworkInterfaces.ListVirtualMachineScaleSetNetworkInterfaces. */
  Listing<ArmResources.NetworkInterface> scaleSetNetworkInterfaces(String resourceGroup, String scaleSet) {
    // The generated client's path has this lower-case "microsoft.Compute" (ARM matches it case-insensitively).
    return list(group(resourceGroup) + "/providers/microsoft.Compute/virtualMachineScaleSets/" + segment(scaleSet)
        + "/networkInterfaces?api-version=" + SCALE_SET_NETWORK, ArmResources.NetworkInterface::read);
  }

  /** PublicIPAddresses.ListByResourceGroup, or PublicIPAddresses.ListAll when {@code resourceGroup} is null. */
  Listing<ArmResources.PublicIp> publicIpAddresses(String resourceGroup) {
    return list(group(resourceGroup) + "/providers/Microsoft.Network/publicIPAddresses?api-version=" + NETWORK,
        ArmResources.PublicIp::read);
  }

  /** PublicIPAddresses.ListVirtualMachineScaleSetPublicIPAddresses. */
  Listing<ArmResources.PublicIp> scaleSetPublicIpAddresses(String resourceGroup, String scaleSet) {
    return list(scaleSetPath(resourceGroup, scaleSet) + "/publicipaddresses?api-version=" + SCALE_SET_NETWORK,
        ArmResources.PublicIp::read);
  }

  private String group(String resourceGroup) {
    return resourceGroup == null ? subscription : subscription + "/resourceGroups/" + segment(resourceGroup);
  }

  private String scaleSetPath(String resourceGroup, String scaleSet) {
    return group(resourceGroup) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + segment(scaleSet);
  }

  /** A listing whose first page is {@code url} and whose next pages are their {@code nextLink}, verbatim. */
  private <T> Listing<T> list(String url, ArmJson.Reader<T> item) {
    return (nextLink, deadline, onAnswer) -> get(nextLink == null ? url : nextLink, deadline, onAnswer, true,
        json -> page(json, item));
  }

  /**
   * One GET: a 200's body read by {@code read}, an error status the {@link ArmAnswerException} the SDK's {@code
   * ManagementException} was; a successful answer to a {@code list} call must be one ({@link ArmListAnswer}), and a
   * 2xx but 200 is one the generated clients did not take.
   */
  private <T> T get(String url, Deadline deadline, Runnable onAnswer, boolean list, ArmJson.Reader<T> read) {
    return http.get(url, deadline, answer -> {
      if (answer.status() == 200) {
        onAnswer.run();
      }
      byte[] body = answer.body().readAllBytes();
      if (list) {
        ArmListAnswer.require(body, BoundedAnswers.origin(answer.request().uri()));
      }
      if (answer.status() != 200) {
        throw new MalformedAnswerException(ArmAnswerException.statusAndBody(answer.status(), body), null);
      }
      try (JsonParser json = ArmJson.parser(body)) {
        return read.read(json);
      } catch (IOException | RuntimeException e) {
        throw new MalformedAnswerException("HTTP response has a malformed body: " + e.getMessage(), e);
      }
    });
  }

  /** One page: the {@code value} array (its {@code null} items left out) and the {@code nextLink}. */
  private static <T> Page<T> page(JsonParser json, ArmJson.Reader<T> item) throws IOException {
    List<T> items = List.of();
    String next = null;
    if (json.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("not a JSON object");
    }
    for (String field = ArmJson.field(json); field != null; field = ArmJson.field(json)) {
      if ("value".equals(field)) {
        List<T> read = ArmJson.list(json, item); // a null in the list (which ARM does not send) is no resource
        if (read != null) {
          items = read;
        }
      } else if ("nextLink".equals(field)) {
        next = ArmJson.string(json);
      } else {
        json.skipChildren();
      }
    }
    return new Page<>(items, next == null || next.isEmpty() ? null : next);
  }

  /** A path segment or query value, percent-encoded ({@code %20} for a space). */
  private static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A query parameter, its value percent-encoded as the generated clients encode it ({@code /} as it is). */
  private static String query(String name, String value) {
    return value == null ? "" : "&" + name + "=" + segment(value).replace("%2F", "/");
  }
}
