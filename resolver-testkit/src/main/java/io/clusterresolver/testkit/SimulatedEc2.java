package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A simulated Amazon EC2 on a local WireMock server: an in-memory fleet that may change between
 * calls, answered in the EC2 Query API's own wire format, plus an IMDSv2 instance metadata service
 * on the same port. Point the real AWS SDK (or any EC2 client) at {@link #endpoint()} and
 * {@link #imdsEndpoint()}.
 *
 * <ul>
 *   <li>{@code DescribeInstances}: filters {@code tag:KEY}, {@code tag-key},
 *       {@code tag-value}, {@code instance-state-name}, {@code availability-zone}, {@code instance-id},
 *       {@code vpc-id}, {@code subnet-id} (values may use EC2's {@code *} and {@code ?} wildcards),
 *       {@code InstanceId.N}, {@code MaxResults} 5–1000 and {@code NextToken}. A request without
 *       {@code MaxResults} gets at most {@link #unpaginatedLimit(int)} (1000) instances and a
 *       {@code nextToken}, as large accounts see on the real API.
 *   <li>{@code DescribeInstanceTypes}: {@code gpuInfo}, {@code neuronInfo},
 *       {@code inferenceAcceleratorInfo} from a catalog of common types ({@link #defineInstanceType});
 *       unknown types are reported without accelerators.
 *   <li>IMDSv2: {@code PUT /latest/api/token}, then GETs with {@code x-aws-ec2-metadata-token} of
 *       {@code meta-data/instance-id}, {@code meta-data/local-ipv4},
 *       {@code meta-data/placement/availability-zone}, {@code meta-data/placement/region} and
 *       {@code dynamic/instance-identity/document}; GETs without a valid token get 401, as on an
 *       instance that requires IMDSv2. Which instance "this" is: {@link #identifyAs(String)}.
 *   <li>Requests must carry a SigV4 {@code Authorization} header, else 401 {@code AuthFailure}.
 *   <li>Per-action call counts, the requests seen, a latency added to every API call, faults
 *       ({@link Fault}) by action, page and count, and EC2's request rate limit
 *       ({@link #rateLimit(TokenBucket)}).
 * </ul>
 *
 * <p>The server listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedEc2 extends SimulatedApi<SimulatedEc2, SimulatedEc2.RecordedRequest> {

  /** The XML namespace of EC2 API version 2016-11-15. */
  public static final String NAMESPACE = "http://ec2.amazonaws.com/doc/2016-11-15/";

  /**
   * The pseudo-action of the instance metadata service: a fault {@linkplain Fault#onOperation on} it
   * hits every IMDS request (an API fault for any action never does).
   */
  public static final String IMDS = "IMDS";

  private static final Pattern SIGV4 = Pattern.compile("AWS4-HMAC-SHA256 Credential=[^/\\s]+/\\d{8}/[^/]+/ec2/aws4_request.*");

  private final String region;
  /** Each instance's DescribeInstances XML, built once: an instance never changes (by identity: guarded by {@code fleet}). */
  private final Map<SimulatedInstance, String> xmlOf = new IdentityHashMap<>();
  private final Fleet<SimulatedInstance> fleet = Fleet.inOrderAdded("instance", xmlOf::remove);
  /** Rendered pages of the current fleet version, so a stampede of the same request costs little CPU. */
  private final Map<String, byte[]> pages = new ConcurrentHashMap<>();
  private final Map<String, SimulatedInstanceType> types = new ConcurrentHashMap<>();
  private volatile int unpaginatedLimit = 1000;
  private volatile String self;
  private final SimulatedImds imds;

  private SimulatedEc2(String region) {
    super("simulated-ec2", IMDS, "DescribeInstances", 16, o -> o);
    this.region = region;
    this.imds = new SimulatedImds(this::selfInstance, region);
    defineDefaultTypes();
  }

  /** Starts a simulation of region {@code us-east-1} on a free loopback port. */
  public static SimulatedEc2 start() {
    return start("us-east-1");
  }

  /** Starts a simulation of a region on a free loopback port. */
  public static SimulatedEc2 start(String region) {
    return new SimulatedEc2(region);
  }

  /** The IMDS endpoint (the same server; IMDS paths start with {@code /latest/}). */
  public URI imdsEndpoint() {
    return endpoint();
  }

  /**
   * The properties that point the {@code aws} provider at this simulation: region, both endpoints
   * and static keys (the simulation checks that requests are signed, not with which key).
   */
  public Map<String, String> providerProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.aws.region", region);
    p.put("clusterresolver.aws.endpoint", endpoint().toString());
    p.put("clusterresolver.aws.imds-endpoint", imdsEndpoint().toString());
    p.put("clusterresolver.aws.access-key-id", "AKIASIMULATED0000000");
    p.put("clusterresolver.aws.secret-access-key", "simulated-secret-access-key");
    return p;
  }

  /** The simulated region. */
  public String region() {
    return region;
  }

  // ---- the fleet ----

  /** Adds instances (replacing any with the same id). */
  public SimulatedEc2 add(SimulatedInstance... instances) {
    fleet.putAll(List.of(instances), SimulatedInstance::instanceId);
    return this;
  }

  /** Adds {@code n} {@linkplain SimulatedInstance#typical(int) typical} running instances numbered from {@code from}, changed by {@code customize}. */
  public SimulatedEc2 addTypical(int from, int n, UnaryOperator<SimulatedInstance.Builder> customize) {
    fleet.putAll(Fleet.numbered(from, n, i -> customize.apply(SimulatedInstance.typical(i)).build()),
        SimulatedInstance::instanceId);
    return this;
  }

  /** Removes an instance; true when it was there. */
  public boolean remove(String instanceId) {
    return fleet.remove(instanceId);
  }

  /** Changes an instance in place (a builder keeps the instance id). */
  public SimulatedEc2 update(String instanceId, UnaryOperator<SimulatedInstance.Builder> change) {
    fleet.update(instanceId, i -> change.apply(i.toBuilder()).build());
    return this;
  }

  /** Sets an instance's state. */
  public SimulatedEc2 setState(String instanceId, SimulatedInstance.State state) {
    return update(instanceId, b -> b.state(state));
  }

  /** Removes every instance. */
  public SimulatedEc2 clear() {
    fleet.clear();
    return this;
  }

  /** An instance's XML; the caller holds {@code fleet}. An instance no longer in the fleet is not kept. */
  private String xml(SimulatedInstance instance) {
    String xml = xmlOf.get(instance);
    if (xml == null) {
      xml = Ec2Xml.reservation(instance);
      if (fleet.get(instance.instanceId()) == instance) {
        xmlOf.put(instance, xml);
      }
    }
    return xml;
  }

  /** A snapshot of the fleet in insertion order. */
  public List<SimulatedInstance> instances() {
    return fleet.list();
  }

  /** Adds or replaces an instance type in the catalog {@code DescribeInstanceTypes} answers from. */
  public SimulatedEc2 defineInstanceType(SimulatedInstanceType type) {
    types.put(type.name(), type);
    return this;
  }

  /** Which instance the metadata service describes; {@code null}: none (IMDS answers 404). */
  public SimulatedEc2 identifyAs(String instanceId) {
    this.self = instanceId;
    return this;
  }

  // ---- behaviour ----

  /** The most instances a {@code DescribeInstances} without {@code MaxResults} returns at once. */
  public SimulatedEc2 unpaginatedLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
    this.unpaginatedLimit = limit;
    return this;
  }

  @Override
  public String toString() {
    return "SimulatedEc2{" + endpoint() + ", " + instances().size() + " instances}";
  }

  /**
   * One request the simulation received: method, path, the EC2 action (or {@code IMDS}), headers (lower-case names)
   * and the Query API parameters (form body and query string).
   */
  public record RecordedRequest(String method, String path, String action, Map<String, String> headers,
      Map<String, String> parameters) {

    /** Keeps the headers and parameters unmodifiable. */
    public RecordedRequest {
      headers = Collections.unmodifiableMap(headers);
      parameters = Collections.unmodifiableMap(parameters);
    }

    /** A header's value by lower-case name, or {@code null}. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return method + " " + path + " (" + action + ")";
    }
  }

  // ---- internals ----

  /** The instance the metadata service describes, or {@code null}. */
  private SimulatedInstance selfInstance() {
    return fleet.get(self);
  }

  private void defineDefaultTypes() {
    for (String plain : List.of("t3.micro", "t3.large", "m5.large", "m5.xlarge", "c5.xlarge", "c6i.2xlarge")) {
      defineInstanceType(SimulatedInstanceType.plain(plain));
    }
    defineInstanceType(SimulatedInstanceType.withGpus("g5.xlarge", 1, "A10G"));
    defineInstanceType(SimulatedInstanceType.withGpus("g5.12xlarge", 4, "A10G"));
    defineInstanceType(SimulatedInstanceType.withGpus("p4d.24xlarge", 8, "A100"));
    defineInstanceType(SimulatedInstanceType.withGpus("p5.48xlarge", 8, "H100"));
    defineInstanceType(SimulatedInstanceType.withNeuronDevices("trn1.32xlarge", 16));
    defineInstanceType(SimulatedInstanceType.withNeuronDevices("inf2.xlarge", 1));
    defineInstanceType(SimulatedInstanceType.withInferenceAccelerators("inf1.xlarge", 1));
  }

  private static Map<String, String> parameters(Call call) {
    Map<String, String> params = new LinkedHashMap<>(call.query());
    if ("POST".equals(call.method())) {
      params.putAll(decodeForm(call.body()));
    }
    return params;
  }

  @Override
  String operation(Call call) {
    return call.path().startsWith("/latest/") ? IMDS : parameters(call).getOrDefault("Action", "(none)");
  }

  @Override
  RecordedRequest recorded(Call call, String action) {
    return new RecordedRequest(call.method(), call.path(), action, call.headers(),
        action.equals(IMDS) ? Map.of() : parameters(call));
  }

  @Override
  ResponseDefinition metadataAnswer(Call call) {
    return imds.answer(call.method(), call.path(), call.headers());
  }

  @Override
  ResponseDefinition refuse(Call call, String action) {
    String authorization = call.header("authorization");
    if (authorization == null || !SIGV4.matcher(authorization).matches()) {
      return Ec2QueryWire.error(401, "AuthFailure", "AWS was not able to validate the provided access credentials", call.id(), 0);
    }
    String version = parameters(call).get("Version");
    if (!"2016-11-15".equals(version)) {
      return Ec2QueryWire.error(400, "InvalidParameterValue", "Unsupported API version: " + version, call.id(), 0);
    }
    return null;
  }

  @Override
  ResponseDefinition answer(Call call, String action) {
    Map<String, String> params = parameters(call);
    try {
      switch (action) {
        case "DescribeInstances":
          return describeInstances(params, call);
        case "DescribeInstanceTypes":
          return describeInstanceTypes(params, call);
        default:
          return Ec2QueryWire.error(400, "InvalidAction", "The action " + action + " is not valid for this web service.",
              call.id(), 0);
      }
    } catch (Ec2QueryWire.BadRequest e) {
      return Ec2QueryWire.error(400, e.code, e.getMessage(), call.id(), 0);
    }
  }

  private ResponseDefinition describeInstances(Map<String, String> params, Call call) {
    String requestId = call.id();
    int pageSize = unpaginatedLimit;
    if (params.containsKey("MaxResults")) {
      int max;
      try {
        max = Integer.parseInt(params.get("MaxResults"));
      } catch (NumberFormatException e) {
        throw new Ec2QueryWire.BadRequest("InvalidParameterValue", "Invalid value for MaxResults: " + params.get("MaxResults"));
      }
      if (max < 5 || max > 1000) {
        throw new Ec2QueryWire.BadRequest("InvalidParameterValue",
            "Value ( " + max + " ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.");
      }
      pageSize = max;
    }
    int page = 1;
    int offset = 0;
    String token = params.get("NextToken");
    if (token != null) {
      int[] decoded = Ec2QueryWire.decodeToken(token);
      page = decoded[0];
      offset = decoded[1];
    }
    Fault fault = fault("DescribeInstances", page);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    Map<String, List<String>> filters = Ec2Filters.parse(params);
    Set<String> ids = new TreeSet<>();
    params.forEach((k, v) -> {
      if (k.startsWith("InstanceId.")) {
        ids.add(v);
      }
    });
    String query = "|" + page + "|" + offset + "|" + pageSize + "|" + filters + "|" + ids;
    byte[] rest = pages.get(fleet.version() + query);
    if (rest == null) {
      // Rendered once per fleet version: a warm listing costs the simulation a lookup, not a copy of the fleet.
      Fleet.Snapshot<SimulatedInstance> all = fleet.snapshot();
      String key = all.version() + query;
      List<SimulatedInstance> matching = new ArrayList<>();
      for (SimulatedInstance i : all.machines()) {
        if ((ids.isEmpty() || ids.contains(i.instanceId())) && Ec2Filters.matches(i, filters)) {
          matching.add(i);
        }
      }
      int end = Math.min(matching.size(), offset + pageSize);
      StringBuilder xml = new StringBuilder(256 + Math.max(0, end - offset) * 1400);
      xml.append("  <reservationSet>\n");
      List<SimulatedInstance> onPage = matching.subList(Math.min(offset, end), end);
      fleet.locked(() -> {
        onPage.forEach(i -> xml.append(xml(i)));
        return xml;
      });
      xml.append("  </reservationSet>\n");
      if (end < matching.size()) {
        xml.append("  <nextToken>").append(Ec2QueryWire.encodeToken(page + 1, end)).append("</nextToken>\n");
      }
      xml.append("</DescribeInstancesResponse>\n");
      rest = xml.toString().getBytes(StandardCharsets.UTF_8);
      if (pages.size() > 64) {
        pages.clear();
      }
      pages.put(key, rest);
    }
    byte[] head = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstancesResponse xmlns=\"" + NAMESPACE
        + "\">\n  <requestId>" + requestId + "</requestId>\n").getBytes(StandardCharsets.UTF_8);
    byte[] body = Arrays.copyOf(head, head.length + rest.length);
    System.arraycopy(rest, 0, body, head.length, rest.length);
    return ok(body, requestId, fault);
  }

  private ResponseDefinition describeInstanceTypes(Map<String, String> params, Call call) {
    String requestId = call.id();
    Fault fault = fault("DescribeInstanceTypes", 1);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    Set<String> asked = new TreeSet<>();
    params.forEach((k, v) -> {
      if (k.startsWith("InstanceType.")) {
        asked.add(v);
      }
    });
    if (asked.size() > 100) {
      throw new Ec2QueryWire.BadRequest("InvalidParameterValue", "At most 100 instance types may be described at once");
    }
    if (asked.isEmpty()) {
      asked.addAll(types.keySet());
    }
    StringBuilder xml = new StringBuilder();
    xml.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstanceTypesResponse xmlns=\"")
        .append(NAMESPACE).append("\">\n  <requestId>").append(requestId).append("</requestId>\n  <instanceTypeSet>\n");
    for (String name : asked) {
      SimulatedInstanceType type = types.getOrDefault(name, SimulatedInstanceType.plain(name));
      xml.append("    <item>\n      <instanceType>").append(Ec2QueryWire.esc(name)).append("</instanceType>\n")
          .append("      <currentGeneration>true</currentGeneration>\n");
      if (type.gpus() > 0) {
        xml.append("      <gpuInfo><gpus><item><name>").append(Ec2QueryWire.esc(type.gpuName())).append("</name>")
            .append("<manufacturer>NVIDIA</manufacturer><count>").append(type.gpus())
            .append("</count><memoryInfo><sizeInMiB>24576</sizeInMiB></memoryInfo></item></gpus>")
            .append("<totalGpuMemoryInMiB>").append(24576 * type.gpus()).append("</totalGpuMemoryInMiB></gpuInfo>\n");
      }
      if (type.neuronDevices() > 0) {
        xml.append("      <neuronInfo><neuronDevices><item><count>").append(type.neuronDevices())
            .append("</count><name>").append(name.startsWith("trn") ? "Trainium" : "Inferentia2")
            .append("</name><coreInfo><count>2</count><version>2</version></coreInfo>")
            .append("<memoryInfo><sizeInMiB>32768</sizeInMiB></memoryInfo></item></neuronDevices>")
            .append("<totalNeuronDeviceMemoryInMiB>").append(32768 * type.neuronDevices())
            .append("</totalNeuronDeviceMemoryInMiB></neuronInfo>\n");
      }
      if (type.inferenceAccelerators() > 0) {
        xml.append("      <inferenceAcceleratorInfo><accelerators><member><count>").append(type.inferenceAccelerators())
            .append("</count><name>Inferentia</name><manufacturer>AWS</manufacturer></member></accelerators>")
            .append("</inferenceAcceleratorInfo>\n");
      }
      xml.append("    </item>\n");
    }
    xml.append("  </instanceTypeSet>\n</DescribeInstanceTypesResponse>\n");
    return ok(xml.toString(), requestId, fault);
  }

  private ResponseDefinition ok(String xml, String requestId, Fault slow) {
    return ok(xml.getBytes(StandardCharsets.UTF_8), requestId, slow);
  }

  private ResponseDefinition ok(byte[] xml, String requestId, Fault slow) {
    long delay = delay(slow);
    // With its length: a body already whole needs no chunked framing (less work for both ends).
    ResponseDefinitionBuilder b = aResponse().withStatus(200).withHeader("Content-Type", "text/xml;charset=UTF-8")
        .withHeader("Content-Length", Integer.toString(xml.length)).withHeader("x-amzn-RequestId", requestId)
        .withBody(xml);
    return SimulatedApi.build(b, delay);
  }

  @Override
  ResponseDefinition error(Fault fault, Call call, long delay) {
    String requestId = call.id();
    switch (fault.kind()) {
      case THROTTLED:
        return Ec2QueryWire.error(503, "RequestLimitExceeded", "Request limit exceeded.", requestId, delay);
      case SERVER_ERROR:
        return Ec2QueryWire.error(500, "InternalError", "An internal error has occurred", requestId, delay);
      case CREDENTIALS_REJECTED:
        return Ec2QueryWire.error(401, "AuthFailure", "AWS was not able to validate the provided access credentials",
            requestId, delay);
      case TRUNCATED_BODY: {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstancesResponse xmlns=\"" + NAMESPACE
            + "\">\n  <requestId>" + requestId + "</requestId>\n  <reservationSet>\n    <item>\n      <reservationId>r-0";
        return ok(xml, requestId, null);
      }
      default:
        return ok("this is <not xml & never was", requestId, null);
    }
  }
}