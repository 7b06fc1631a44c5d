package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.NotTheApiException;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Lists the pods of one namespace that match the label selector, every page ({@code limit} /
 * {@code continue}) under one deadline, and reads each into a member or a reason to leave it out
 * (logged, never fatal). A page that fails fails the listing: never a partial cluster. A
 * {@code continue} token that expired (410 Gone) restarts the listing from the first page once, as
 * {@code kubectl} does.
 */
final class PodSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(PodSource.class.getName());
  private static final int NAMES_LOGGED = 20;

  /** Pods per page: the API server's and kubectl's usual chunk size. */
  static final long PAGE_SIZE = 500;

  /** Runs the client's blocking calls, so that a resolve waits no longer than its deadline. */
  private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "cluster-resolver-kubernetes");
    t.setDaemon(true);
    return t;
  });

  private final KubernetesClient client;
  private final AuditIds auditIds;
  private final CloudApi api;
  private final ApiConnection connection;
  private final String selector;
  private final AddressType addressType;
  private final int port;
  private final String portName;
  private final Duration timeout;

  PodSource(KubernetesClient client, AuditIds auditIds, CloudApi api, ApiConnection connection, String selector,
      AddressType addressType, int port, String portName, Duration timeout) {
    this.client = client;
    this.auditIds = auditIds;
    this.api = api;
    this.connection = connection;
    this.selector = selector;
    this.addressType = addressType;
    this.port = port;
    this.portName = portName;
    this.timeout = timeout;
  }

  /** The member pods and the pods left out (with the reason), from one complete listing. */
  record Listing(List<Member> members, List<String> leftOut) {}

  /** The member pods of one complete listing; the pods left out are logged. */
  @Override
  public List<Member> members() {
    Listing listing = list();
    List<String> pods = listing.leftOut();
    if (!pods.isEmpty()) {
      LOG.log(Level.INFO, () -> "kubernetes: " + pods.size() + " pod(s) matching the selector left out of the"
          + " cluster: " + String.join(", ", pods.subList(0, Math.min(NAMES_LOGGED, pods.size())))
          + (pods.size() > NAMES_LOGGED ? ", …" : ""));
    }
    return listing.members();
  }

  /** A continue token the API server no longer knows (410 Gone, reason Expired). */
  private static final class ContinueExpired extends ClusterResolverException {
    ContinueExpired(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Lists every page.
   *
   * @throws ClusterResolverException naming the page, the HTTP status and what to change
   * @throws io.clusterresolver.ConfigurationException when the token file cannot be read
   */
  Listing list() {
    connection.checkCredentials();
    CloudApi.Session session = api.session(timeout);
    try {
      return listOnce(session);
    } catch (ContinueExpired expired) {
      try {
        return listOnce(session);
      } catch (ContinueExpired again) {
        throw new ClusterResolverException("kubernetes: list pods in namespace " + connection.namespace()
            + ": the continue token expired twice (410 Gone) before the listing completed: the pods change faster"
            + " than they can be listed; raise clusterresolver.kubernetes.timeout or narrow the selector", again);
      }
    }
  }

  private Listing listOnce(CloudApi.Session session) {
    List<Member> members = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    session.forEachPage("list pods in namespace " + connection.namespace(),
        (token, remaining) -> podList(within(remaining, () -> page(token))),
        page -> page.getMetadata() == null ? null : page.getMetadata().getContinue(),
        page -> {
          if (page.getItems() == null) {
            return;
          }
          for (Pod pod : page.getItems()) {
            Pods.Reading r = Pods.read(pod, addressType, port, portName);
            if (r.member() != null) {
              members.add(r.member());
            } else {
              leftOut.add(r.leftOutBecause());
            }
          }
        });
    return new Listing(members, leftOut);
  }

  /**
   * The page, when it is the API server's answer: every list it sends has {@code metadata.resourceVersion}
   * (the client fills in {@code kind} and {@code apiVersion} itself), so a 200 from something else is an error.
   */
  private static PodList podList(PodList page) {
    return NotTheApiException.require(page, page.getMetadata() != null && page.getMetadata().getResourceVersion() != null
        && !page.getMetadata().getResourceVersion().isEmpty(), "a list without \"metadata.resourceVersion\"");
  }

  /**
   * Runs a call of the blocking client, waiting at most {@code remaining}: the client's own
   * timeout and retries apply per attempt, the deadline bounds them all.
   */
  private static PodList within(Duration remaining, Supplier<PodList> call) {
    CompletableFuture<PodList> answer = CompletableFuture.supplyAsync(call, CALLS);
    try {
      return answer.get(remaining.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new KubernetesClientException("no answer within the deadline", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new KubernetesClientException("list failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubernetesClientException("interrupted", e);
    }
  }

  private PodList page(String token) {
    try {
      return client.pods().inNamespace(connection.namespace()).list(new ListOptionsBuilder()
          .withLabelSelector(selector)
          .withLimit(PAGE_SIZE)
          .withContinue(token)
          .build());
    } catch (KubernetesClientException e) {
      String apiMessage = e.getStatus() == null ? null : e.getStatus().getMessage();
      String auditId = e.getCode() >= 400 ? auditIds.find(connection.namespace(), token) : null;
      if (e.getCode() == 401 || e.getCode() == 403) {
        throw new ClusterResolverException(RbacAdvice.explain(e.getCode(), connection.namespace(), apiMessage,
            connection.credentialsDescription(), auditId), e);
      }
      if (e.getCode() >= 300 && e.getCode() < 400) {
        throw new ClusterResolverException("kubernetes: list pods in namespace " + connection.namespace() + " at "
            + connection.clientConfig().getMasterUrl() + " was answered with a redirect (HTTP " + e.getCode() + "),"
            + " which is not followed so that the credentials go to no other host: set"
            + " clusterresolver.kubernetes.endpoint (or the kubeconfig's server) to the API server itself", e, false);
      }
      if (e.getCode() == 410 && token != null) {
        throw new ContinueExpired("kubernetes: the continue token expired (410 Gone): " + apiMessage, e);
      }
      throw auditId == null ? e : new KubernetesFailures.Audited(e, auditId);
    }
  }
}
