package io.clusterresolver.aws;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.layout.Member;
import io.clusterresolver.layout.MemberSource;
import io.clusterresolver.spi.Deadline;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.GpuDeviceInfo;
import software.amazon.awssdk.services.ec2.model.InferenceDeviceInfo;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;
import software.amazon.awssdk.services.ec2.model.NeuronDeviceInfo;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Lists EC2 instances as members: every page of {@code DescribeInstances} under one deadline, the
 * chosen address only, and accelerators from {@code DescribeInstanceTypes}, asked once per JVM and
 * endpoint for all types not yet known (instance types never change; membership is never cached).
 */
final class Ec2MemberSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(Ec2MemberSource.class.getName());
  private static final String PROVIDER = AwsClusterResolverProvider.NAME;

  /** Accelerators by instance type, per API endpoint (region or override): facts that never change. */
  private static final Map<String, Map<String, Integer>> TYPE_CACHE = new ConcurrentHashMap<>();

  private final Ec2Client ec2;
  private final List<Filter> filters;
  private final AddressType address;
  private final Duration timeout;
  private final int pageSize;
  private final boolean accelerators;
  private final String cacheScope;

  Ec2MemberSource(Ec2Client ec2, List<Filter> filters, AddressType address, Duration timeout, int pageSize,
      boolean accelerators, String cacheScope) {
    this.ec2 = ec2;
    this.filters = List.copyOf(filters);
    this.address = address;
    this.timeout = timeout;
    this.pageSize = pageSize;
    this.accelerators = accelerators;
    this.cacheScope = cacheScope;
  }

  @Override
  public List<Member> members() {
    Deadline deadline = Deadline.after(timeout);
    // Each page's SDK objects are dropped once read: only what the layout needs is kept.
    List<Listed> listed = new ArrayList<>();
    List<String> withoutAddress = new ArrayList<>();
    String token = null;
    int page = 0;
    do {
      page++;
      deadline.check(PROVIDER, "DescribeInstances page " + page);
      DescribeInstancesRequest request = DescribeInstancesRequest.builder()
          .filters(filters)
          .maxResults(pageSize)
          .nextToken(token)
          .overrideConfiguration(c -> c.apiCallTimeout(atLeastOneMs(deadline.remaining())))
          .build();
      DescribeInstancesResponse response = call("DescribeInstances", page, deadline,
          () -> ec2.describeInstances(request));
      for (Reservation r : response.reservations()) {
        for (Instance i : r.instances()) {
          String chosen = address.of(i).orElse(null);
          if (chosen == null) {
            withoutAddress.add(i.instanceId() + " (" + i.state().nameAsString() + ")");
          } else {
            listed.add(new Listed(i, chosen));
          }
        }
      }
      token = response.nextToken();
    } while (token != null && !token.isEmpty());

    Map<String, Map<String, Integer>> typeAccelerators = accelerators ? acceleratorsOf(listed, deadline) : Map.of();
    List<Member> members = new ArrayList<>(listed.size());
    for (Listed i : listed) {
      members.add(i.member.accelerators(typeAccelerators.getOrDefault(i.type, Map.of())).build());
    }
    if (!withoutAddress.isEmpty()) {
      LOG.log(Level.INFO, () -> PROVIDER + ": " + withoutAddress.size() + " instance(s) without a "
          + address.configName() + " address left out: "
          + withoutAddress.stream().limit(20).collect(Collectors.joining(", "))
          + (withoutAddress.size() > 20 ? ", …" : ""));
    }
    return members;
  }

  /** What is kept of one listed instance: its member (accelerators still to come) and its type. */
  private static final class Listed {
    final Member.Builder member;
    final String type;

    Listed(Instance i, String address) {
      this.type = i.instanceTypeAsString();
      this.member = Member.builder(i.instanceId(), address).creationTime(i.launchTime());
      for (Tag tag : i.tags()) {
        member.label(tag.key(), tag.value());
        if ("Name".equals(tag.key())) {
          member.name(tag.value());
        }
      }
    }
  }

  /** Accelerators by type name for the instances' types; unknown types are asked for in one call (per 100 types). */
  private Map<String, Map<String, Integer>> acceleratorsOf(List<Listed> instances, Deadline deadline) {
    Set<String> missing = new TreeSet<>();
    for (Listed i : instances) {
      String type = i.type;
      if (type != null && !TYPE_CACHE.containsKey(cacheScope + "|" + type)) {
        missing.add(type);
      }
    }
    List<String> batch = new ArrayList<>(missing);
    for (int from = 0; from < batch.size(); from += 100) {
      List<String> chunk = batch.subList(from, Math.min(batch.size(), from + 100));
      deadline.check(PROVIDER, "DescribeInstanceTypes");
      DescribeInstanceTypesResponse response = call("DescribeInstanceTypes", 0, deadline,
          () -> ec2.describeInstanceTypes(r -> r.instanceTypesWithStrings(chunk)
              .overrideConfiguration(c -> c.apiCallTimeout(atLeastOneMs(deadline.remaining())))));
      for (InstanceTypeInfo info : response.instanceTypes()) {
        TYPE_CACHE.put(cacheScope + "|" + info.instanceTypeAsString(), count(info));
      }
      for (String asked : chunk) {
        TYPE_CACHE.putIfAbsent(cacheScope + "|" + asked, Map.of()); // not reported: no accelerators
      }
    }
    Map<String, Map<String, Integer>> result = new LinkedHashMap<>();
    for (Listed i : instances) {
      String type = i.type;
      if (type != null) {
        result.put(type, TYPE_CACHE.getOrDefault(cacheScope + "|" + type, Map.of()));
      }
    }
    return result;
  }

  /** GPUs, Neuron devices and (first-generation) inference accelerators of a type. */
  static Map<String, Integer> count(InstanceTypeInfo info) {
    Map<String, Integer> devices = new TreeMap<>();
    if (info.gpuInfo() != null) {
      int gpus = info.gpuInfo().gpus().stream().map(GpuDeviceInfo::count).filter(c -> c != null)
          .mapToInt(Integer::intValue).sum();
      if (gpus > 0) {
        devices.put("GPU", gpus);
      }
    }
    if (info.neuronInfo() != null) {
      int neuron = info.neuronInfo().neuronDevices().stream().map(NeuronDeviceInfo::count).filter(c -> c != null)
          .mapToInt(Integer::intValue).sum();
      if (neuron > 0) {
        devices.put("NEURON", neuron);
      }
    }
    if (info.inferenceAcceleratorInfo() != null) {
      int inference = info.inferenceAcceleratorInfo().accelerators().stream().map(InferenceDeviceInfo::count)
          .filter(c -> c != null).mapToInt(Integer::intValue).sum();
      if (inference > 0) {
        devices.put("INFERENTIA", inference);
      }
    }
    return Map.copyOf(devices);
  }

  /** For tests: forget cached instance types. */
  static void clearTypeCache() {
    TYPE_CACHE.clear();
  }

  private interface Call<T> {
    T run();
  }

  /** Runs one API call (the SDK retries within it); any failure becomes one typed, explained error. */
  private <T> T call(String operation, int page, Deadline deadline, Call<T> call) {
    String what = operation + (page > 0 ? " (page " + page + ")" : "");
    try {
      return call.run();
    } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
      throw deadline.timedOut(PROVIDER, what, e);
    } catch (AwsServiceException e) {
      String code = e.awsErrorDetails() != null && e.awsErrorDetails().errorCode() != null
          ? e.awsErrorDetails().errorCode() : "unknown error";
      String message = e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
          ? e.awsErrorDetails().errorMessage() : "";
      throw new ClusterResolverException(PROVIDER + ": " + what + " failed with HTTP " + e.statusCode() + " " + code
          + (message.isEmpty() ? "" : " (" + message + ")") + ", AWS request id "
          + (e.requestId() == null ? "(none)" : e.requestId()) + ", after " + attempts(e) + hint(e.statusCode(), code),
          e);
    } catch (SdkException e) {
      if (deadline.expired()) {
        throw deadline.timedOut(PROVIDER, what, e);
      }
      if (String.valueOf(e.getMessage()).contains("Unable to unmarshall")) {
        throw new ClusterResolverException(PROVIDER + ": " + what + " returned an answer that is not valid EC2 XML ("
            + firstLine(e.getMessage()) + "); check that clusterresolver.aws.endpoint is an EC2 API endpoint", e);
      }
      throw new ClusterResolverException(PROVIDER + ": " + what + " failed without a valid HTTP response ("
          + e.getClass().getSimpleName() + ": " + firstLine(e.getMessage()) + ") after " + attempts(e)
          + "; check clusterresolver.aws.endpoint and the network path to EC2", e);
    }
  }

  private static String attempts(SdkException e) {
    int n = e.numAttempts();
    return n <= 1 ? "1 attempt" : n + " attempts";
  }

  private static String hint(int status, String code) {
    if (status == 401 || status == 403 || code.startsWith("Auth") || code.startsWith("Unauthorized")) {
      return "; check the credentials (clusterresolver.aws.profile, the default chain) and that the IAM policy allows "
          + "ec2:DescribeInstances and ec2:DescribeInstanceTypes";
    }
    if (status == 503 || "RequestLimitExceeded".equals(code)) {
      return "; EC2 is throttling this account: raise clusterresolver.aws.timeout or call less often";
    }
    return "";
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static Duration atLeastOneMs(Duration d) {
    return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
  }
}
