package io.clusterresolver.aws;

import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MalformedAnswerException;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.MembersLeftOut;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.cloud.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lists EC2 instances as members: every page of {@code DescribeInstances} under one deadline, read
 * with StAX ({@link InstancePage}) keeping only what a member needs, and accelerators from
 * {@code DescribeInstanceTypes} (read the same way), asked once per JVM and endpoint for the types not yet known (instance
 * types never change; membership is never cached), from the moment a page is read, while that call ends and
 * later pages are in flight. The calls are {@link Ec2Calls}' on the JDK's connections, retried by the kit's session:
 * with the SDK standard strategy's backoff ({@link #standardRetries}) or, with {@code retry-mode=adaptive}, the waits
 * of the SDK's adaptive strategy ({@link AdaptiveEc2}).
 */
final class Ec2MemberSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(Ec2MemberSource.class.getName());
  private static final String PROVIDER = AwsClusterResolverProvider.NAME;
  /** The kit's runner of EC2 calls: failures explained the kit's way, retried by {@code retries}. */
  private static CloudApi api(RetryPolicy retries) {
    return CloudApi.builder(PROVIDER, Ec2MemberSource::readFailure)
        .apiName("EC2")
        .retryPolicy(retries)
        .permissions("ec2:DescribeInstances and ec2:DescribeInstanceTypes (credentials: clusterresolver.aws.profile,"
            + " static keys or the default chain)")
        .credentialsHint("set clusterresolver.aws.profile (a profile of ~/.aws/credentials), or"
            + " clusterresolver.aws.access-key-id and secret-access-key, or give the default chain credentials"
            + " (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, ~/.aws/credentials, web identity, a container or"
            + " instance role)")
        .build();
  }

  /**
   * The retries of calls on the JDK's connections: {@code maxAttempts} attempts with the SDK's standard retry
   * strategy's backoff (100 ms, throttling 500 ms, doubled to at most 20 s, jittered), or the wait EC2 asks for.
   */
  static RetryPolicy standardRetries(int maxAttempts) {
    return RetryPolicy.builder().maxAttempts(maxAttempts)
        .baseBackoff(Duration.ofMillis(100)).throttlingBackoff(Duration.ofMillis(500))
        .maxBackoff(Duration.ofSeconds(20)).build();
  }

  /** Accelerators by instance type, per API endpoint (region or override): facts that never change. */
  private static final CatalogCache<Map<String, Integer>> TYPE_CACHE = CatalogCache.create();

  private final Ec2Calls ec2;
  private final CloudApi api;
  private final List<Ec2Filter> filters;
  private final AddressType address;
  private final Duration timeout;
  private final int pageSize;
  private final boolean accelerators;
  private final String cacheScope;
  private final Runnable onListing;

  /** {@code retries}: how the session retries {@code ec2}'s calls. */
  Ec2MemberSource(Ec2Calls ec2, RetryPolicy retries, List<Ec2Filter> filters,
      AddressType address, Duration timeout, int pageSize, boolean accelerators, String cacheScope,
      Runnable onListing) {
    this.onListing = onListing;
    this.ec2 = ec2;
    this.api = api(retries);
    this.filters = List.copyOf(filters);
    this.address = address;
    this.timeout = timeout;
    this.pageSize = pageSize;
    this.accelerators = accelerators;
    this.cacheScope = cacheScope;
  }

  @Override
  public List<Member> members() {
    CloudApi.Session session = api.session(timeout);
    onListing.run(); // the metadata identity, asked while the first page is in flight
    // Only what the layout needs is kept of each page.
    List<Listed> listed = new ArrayList<>();
    MembersLeftOut withoutAddress = MembersLeftOut.of(PROVIDER, "instance(s)", address, "");
    // Instance types not yet known are asked in the background as each page is read, while that call ends and
    // later pages are fetched; whatever is still missing at the end is asked then.
    CatalogCache.Prefetch<Map<String, Integer>> catalog = TYPE_CACHE.prefetch(session, cacheScope, BACKGROUND,
        "cluster-resolver-aws-catalog", types -> ask(session, types));
    session.forEachPage("DescribeInstances",
        (token, remaining) -> {
          InstancePage page = ec2.describeInstances(filters, pageSize, token, remaining, read -> {
            if (accelerators) {
              // Asked the moment the page is read: while this call ends and later pages come.
              catalog.start(typesWithAddress(read));
            }
          });
          return NotTheApiException.require(page, page.ec2Answer(), "no <" + InstancePage.ROOT + "> element");
        },
        InstancePage::nextToken,
        page -> {
          for (InstancePage.Instance i : page.instances()) {
            String chosen = i.address(address).orElse(null);
            if (chosen == null) {
              withoutAddress.add(i.id() + " (" + i.state() + ")");
            } else {
              listed.add(new Listed(i, chosen));
            }
          }
        });

    Map<String, Map<String, Integer>> typeAccelerators = accelerators ? catalog.await(typesOf(listed)) : Map.of();
    List<Member> members = new ArrayList<>(listed.size());
    for (int k = 0; k < listed.size(); k++) {
      Listed i = listed.set(k, null); // each instance is held once: as read, or as a member
      members.add(i.member(typeAccelerators.getOrDefault(i.type, Map.of())));
    }
    withoutAddress.log(LOG);
    return members;
  }

  /** What is kept of one listed instance until its type's accelerators are known. */
  private static final class Listed {
    final InstancePage.Instance instance;
    final String address;
    final String type;

    Listed(InstancePage.Instance i, String address) {
      this.instance = i;
      this.address = address;
      this.type = i.type();
    }

    Member member(Map<String, Integer> accelerators) {
      Member.Builder member = Member.builder(instance.id(), address).creationTime(instance.launchTime())
          .labels(instance.tags()).accelerators(accelerators);
      String name = instance.tags().get("Name");
      if (name != null) {
        member.name(name);
      }
      return member.build();
    }
  }

  /** The instance types of the listed instances. */
  private static Set<String> typesOf(List<Listed> listed) {
    Set<String> types = new java.util.LinkedHashSet<>();
    for (Listed i : listed) {
      if (i.type != null) {
        types.add(i.type);
      }
    }
    return types;
  }

  /** The instance types of the instances of {@code page} that are listed (those with an address of the chosen type). */
  private Set<String> typesWithAddress(InstancePage page) {
    Set<String> types = new java.util.LinkedHashSet<>();
    for (InstancePage.Instance i : page.instances()) {
      if (i.type() != null && i.address(address).isPresent()) {
        types.add(i.type());
      }
    }
    return types;
  }

  /**
   * The accelerators of {@code types}, one {@code DescribeInstanceTypes} per 100 (a type the answer does not report
   * has none). Runs on the listing's thread or the catalog's (the session only reads its deadline: safe to share).
   */
  private Map<String, Map<String, Integer>> ask(CloudApi.Session session, List<String> types) {
    Map<String, Map<String, Integer>> accelerators = new HashMap<>();
    for (int from = 0; from < types.size(); from += 100) {
      List<String> chunk = types.subList(from, Math.min(types.size(), from + 100));
      InstanceTypeAccelerators answer = session.call("DescribeInstanceTypes",
          remaining -> ec2.describeInstanceTypes(chunk, remaining));
      for (String type : chunk) {
        accelerators.put(type, answer.types().getOrDefault(type, Map.of()));
      }
    }
    return accelerators;
  }

  /** Runs the catalog calls that overlap later pages: at most 4 at once, on the kit's daemon threads. */
  private static final java.util.concurrent.ExecutorService BACKGROUND =
      io.clusterresolver.cloud.InBackground.daemonThreads("cluster-resolver-aws-catalog", 4);

  /** For tests: forget cached instance types. */
  static void clearTypeCache() {
    TYPE_CACHE.clear();
  }

  /**
   * The facts of a call that failed without an error answer (the session takes EC2's error answers, the kit's
   * {@code ApiErrorException}, as they are), for the kit's one explanation of it.
   */
  static ApiFailure readFailure(RuntimeException e) {
    if (e instanceof MalformedAnswerException malformed) {
      return malformed.failure();
    }
    if (e instanceof java.io.UncheckedIOException) {
      return ApiFailure.withoutAnswer(e);
    }
    String message = e.getClass().getSimpleName() + ": " + e.getMessage();
    String text = String.valueOf(e.getMessage());
    if (text.contains("Unable to load credentials")) {
      // The SDK lists every provider of the chain with its reason: name the chain, not its 2 KB dump.
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, "none of the default chain's sources had credentials: system"
          + " properties, environment variables, web identity, the profile file, the container and the instance"
          + " role", 1);
    }
    if (text.contains("Profile file contained no credentials")) {
      int colon = text.indexOf(": ProfileFile(");
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, colon > 0 ? text.substring(0, colon) : text, 1);
    }
    return ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, message, 1);
  }
}
