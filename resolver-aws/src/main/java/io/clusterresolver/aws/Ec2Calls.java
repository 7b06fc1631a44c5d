package io.clusterresolver.aws;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CloudHttp;
import io.clusterresolver.cloud.MalformedAnswerException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.util.VersionInfo;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.regions.EndpointTag;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.ServiceEndpointKey;
import software.amazon.awssdk.regions.servicemetadata.Ec2ServiceMetadata;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The EC2 actions of a resolve as the SDK's {@code Ec2Client} sends them (EC2's Query protocol: a {@code POST} of
 * {@code Action=…&Version=2016-11-15&…} as a form, its parameters in the order of the SDK's marshaller), signed by
 * the SDK's own SigV4 signer ({@link AwsV4HttpSigner}) with the identity of the SDK's credentials providers, on the
 * JDK's {@code HttpURLConnection} through the kit's {@link CloudHttp} (through the proxy the SDK's client would have
 * taken, {@link Ec2Proxies}): no client, service model, marshallers,
 * interceptor chain or retry strategy is built for two actions. A call is sent once on the caller's thread (the
 * session of the kit's {@code CloudApi} retries), within what is left of the resolve's deadline, its body under the
 * {@link AnswerLimit}, as {@link CloudHttp} bounds it.
 *
 * <p>A 200's body is streamed into {@link InstancePage} or {@link InstanceTypeAccelerators}; an error status is read
 * from EC2's error answer ({@code <Response><Errors><Error><Code>…<Message>…</Error></Errors><RequestID>…}) into the
 * kit's {@link ApiErrorException} (a status without EC2's error answer named by the status alone); an answer that is not the XML expected is the kit's
 * {@link MalformedAnswerException}.
 */
final class Ec2Calls {

  /** The API version the SDK's EC2 model sends. */
  static final String VERSION = "2016-11-15";
  /** The body's type, as the SDK's Query protocol sends it. */
  static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";
  private static final String USER_AGENT = "aws-sdk-java/" + VersionInfo.SDK_VERSION + " cluster-resolver";
  private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

  private final URI endpoint;
  private final String region;
  private final AwsCredentialsProvider credentials;
  private final CloudHttp http;
  private final Clock clock;
  private final int maxAttempts;
  private final Ec2Proxies proxies;

  /**
   * Calls for {@code endpoint} (like {@code https://ec2.us-east-1.amazonaws.com}), signed for {@code region}.
   *
   * @param clock the signing time's clock (the system's; a fixed one in tests)
   * @param maxAttempts the attempts the session makes, sent in the {@code amz-sdk-request} header as the SDK does
   * @param proxies the proxy of each call, as the SDK's client chose it
   */
  Ec2Calls(URI endpoint, String region, AwsCredentialsProvider credentials, AnswerLimit limit, Clock clock,
      int maxAttempts, Ec2Proxies proxies) {
    this.endpoint = endpoint;
    this.region = region;
    this.credentials = credentials;
    this.http = new CloudHttp(limit, CloudHttp.Redirects.REPORTED, null, proxies);
    this.clock = clock;
    this.maxAttempts = maxAttempts;
    this.proxies = proxies;
  }

  /** EC2's endpoint in {@code region}, neither FIPS nor dual-stack. */
  static URI regionalEndpoint(String region) {
    return regionalEndpoint(region, false, false);
  }

  /**
   * EC2's endpoint in {@code region}, {@code fips} and {@code dualstack} or not, from the regions module's table (its
   * EC2 entry alone: looking it up by name with {@code ServiceMetadata.of} first loads the entries of every service,
   * some 300 classes), which gives what the SDK client's endpoint rules give ({@code Ec2EndpointTest},
   * {@code Ec2EndpointVariantTest}).
   */
  static URI regionalEndpoint(String region, boolean fips, boolean dualstack) {
    List<EndpointTag> tags = new ArrayList<>(2);
    if (fips) {
      tags.add(EndpointTag.FIPS);
    }
    if (dualstack) {
      tags.add(EndpointTag.DUALSTACK);
    }
    return URI.create("https://" + new Ec2ServiceMetadata().endpointFor(ServiceEndpointKey.builder()
        .region(Region.of(region)).tags(tags).build()));
  }

  /**
   * One page of {@code DescribeInstances}, given to {@code read} the moment it is read (before the call ends).
   *
   * @param token the page's {@code NextToken}, or {@code null} for the first
   * @param remaining what is left of the resolve's deadline for the whole call
   */
  InstancePage describeInstances(List<Ec2Filter> filters, int pageSize, String token, Duration remaining,
      Consumer<InstancePage> read) {
    Form form = new Form("DescribeInstances");
    for (int i = 0; i < filters.size(); i++) {
      Ec2Filter filter = filters.get(i);
      String prefix = "Filter." + (i + 1) + ".";
      form.add(prefix + "Name", filter.name());
      for (int v = 0; v < filter.values().size(); v++) {
        form.add(prefix + "Value." + (v + 1), filter.values().get(v));
      }
    }
    if (token != null) {
      form.add("NextToken", token);
    }
    form.add("MaxResults", Integer.toString(pageSize));
    return call(form, remaining, in -> {
      InstancePage page = InstancePage.read(in);
      read.accept(page);
      return page;
    });
  }

  /** The accelerators of at most 100 {@code types}: one {@code DescribeInstanceTypes}. */
  InstanceTypeAccelerators describeInstanceTypes(List<String> types, Duration remaining) {
    Form form = new Form("DescribeInstanceTypes");
    for (int i = 0; i < types.size(); i++) {
      form.add("InstanceType." + (i + 1), types.get(i));
    }
    return call(form, remaining, InstanceTypeAccelerators::read);
  }

  /** A Query request's body: {@code Action} and {@code Version}, then the parameters, form-encoded as the SDK encodes them. */
  static final class Form {
    final String action;
    private final StringBuilder body = new StringBuilder();

    Form(String action) {
      this.action = action;
      add("Action", action);
      add("Version", VERSION);
    }

    void add(String name, String value) {
      if (body.length() > 0) {
        body.append('&');
      }
      body.append(SdkHttpUtils.formDataEncode(name)).append('=').append(SdkHttpUtils.formDataEncode(value));
    }

    private byte[] bytes() {
      return body.toString().getBytes(StandardCharsets.UTF_8);
    }
  }

  /** Reads a 200's whole body. */
  @FunctionalInterface
  interface Answer<T> {
    T read(InputStream body) throws XMLStreamException, IOException;
  }

  /** The request as the SDK's client sends it, before it is signed ({@link #sign}). */
  CloudHttp.Request request(Form form) {
    return CloudHttp.Request.post(endpoint.resolve("/"), FORM, form.bytes())
        .with("User-Agent", USER_AGENT)
        .with("amz-sdk-invocation-id", UUID.randomUUID().toString())
        .with("amz-sdk-request", "attempt=1; max=" + maxAttempts);
  }

  /**
   * The headers the SDK's SigV4 signer adds to {@code request} ({@code Authorization}, {@code X-Amz-Date}, and
   * {@code X-Amz-Security-Token} for session credentials): it signs the request as the JDK sends it, with the host
   * and body length the JDK writes itself. Then, unsigned as the SDK's client added it, the SDK's proxy's
   * {@code Proxy-Authorization} for an {@code http} endpoint ({@link Ec2Proxies#authorization}), which the proxy
   * takes off.
   */
  Map<String, List<String>> sign(CloudHttp.Request request) {
    SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder()
        .method(SdkHttpMethod.fromValue(request.method()))
        .uri(request.uri())
        .putHeader("Content-Length", Integer.toString(request.body().length));
    request.headers().forEach(unsigned::putHeader);
    SdkHttpRequest signed = SIGNER.sign(r -> r.identity(credentials.resolveCredentials())
        .request(unsigned.build())
        .payload(ContentStreamProvider.fromByteArrayUnsafe(request.body()))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
        .putProperty(HttpSigner.SIGNING_CLOCK, clock)).request();
    Map<String, List<String>> added = new LinkedHashMap<>();
    signed.forEachHeader((name, values) -> {
      if (!name.equalsIgnoreCase("Host") && !name.equalsIgnoreCase("Content-Length")
          && !request.headers().containsKey(name)) {
        added.put(name, values);
      }
    });
    String proxy = proxies.authorization(request.uri());
    if (proxy != null) {
      added.put("Proxy-Authorization", List.of(proxy));
    }
    return added;
  }

  /** One call: a 2xx answer read by {@code reader}, an error answer thrown as {@link #failure}'s. */
  private <T> T call(Form form, Duration remaining, Answer<T> reader) {
    return http.exchange(request(form), this::sign, remaining, answer -> {
      try {
        return reader.read(answer.body());
      } catch (XMLStreamException e) {
        // A body cut short by the answer limit is the limit's error: the kit finds it in this one.
        throw new MalformedAnswerException(form.action + ": the answer is not the XML expected (" + e.getMessage() + ")", e);
      }
    }, answer -> failure(form, answer));
  }

  /**
   * An error status: EC2's error answer read when it is one, else the status alone (as the body of a 401, which the
   * JDK does not give when the request's body is streamed).
   */
  private static ApiErrorException failure(Form form, CloudHttp.ErrorAnswer answer) {
    Ec2Error error = null;
    try {
      error = Ec2Error.read(new ByteArrayInputStream(answer.body()));
    } catch (XMLStreamException e) {
      // Not EC2's error answer (a proxy's page, an empty body): the status speaks for itself.
    }
    String code = error == null ? null : error.code();
    String message = error == null ? answer.reason() : error.message();
    String requestId = error == null || error.requestId() == null
        ? answer.firstHeader("x-amzn-RequestId", "x-amz-request-id") : error.requestId();
    return new ApiErrorException(form.action + ": HTTP " + answer.status() + (code == null ? "" : " " + code)
        + (message == null ? "" : ": " + message), ApiFailure.http(answer.status(),
        code != null ? code : statusAlone(answer.status()), message, requestId, 1).withRetryAfter(answer.retryAfter()));
  }

  /** What an error status without EC2's error answer is called. */
  private static String statusAlone(int status) {
    return status == 401 ? "Unauthorized (EC2 AuthFailure: the credentials were not accepted)" : "unknown error";
  }
}
