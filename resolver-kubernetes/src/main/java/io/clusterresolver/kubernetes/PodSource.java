package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.InBackground;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.MembersLeftOut;
import io.clusterresolver.cloud.RetryAfter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * Lists the pods of one namespace that match the label selector, every page ({@code limit} /
 * {@code continue}) under one deadline, and reads each into a member or a reason to leave it out
 * (logged, never fatal). A page that fails fails the listing: never a partial cluster. The pages of
 * one listing are one snapshot: the API server serves every {@code continue} page from the first
 * page's {@code resourceVersion}. A {@code continue} token that expired (410 Gone) restarts the
 * listing from the first page once, as {@code kubectl} does.
 *
 * <p>The requests go through {@link ApiCalls}: the JDK's {@code HttpURLConnection} for a token, a certificate
 * authority and an endpoint, fabric8's HTTP client for a kubeconfig; each answer is read by {@link PodListJson}, for
 * only the fields a resolve uses.
 */
final class PodSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(PodSource.class.getName());

  /** Pods per page: the API server's and kubectl's usual chunk size. */
  static final long PAGE_SIZE = 500;

  /**
   * Runs the calls, so that a resolve waits no longer than its deadline: the pages, the calls on
   * {@code HttpURLConnection} ({@link UrlConnectionCalls}) and the JDK HTTP client's own work under fabric8's client
   * ({@link ApiClientFactory}), one pool of daemon threads for all.
   */
  static final ExecutorService CALLS = InBackground.daemonThreads("cluster-resolver-kubernetes");

  private final ApiCalls calls;
  private final CloudApi api;
  private final ApiConnection connection;
  private final String selector;
  private final AddressType addressType;
  private final int port;
  private final String portName;
  private final Duration timeout;

  PodSource(ApiCalls calls, CloudApi api, ApiConnection connection, String selector, AddressType addressType,
      int port, String portName, Duration timeout) {
    this.calls = calls;
    this.api = api;
    this.connection = connection;
    this.selector = selector;
    this.addressType = addressType;
    this.port = port;
    this.portName = portName;
    this.timeout = timeout;
  }

  /** The member pods and the pods left out (each with its reason), from one complete listing. */
  record Listing(List<Member> members, MembersLeftOut leftOut) {}

  /** The member pods of one complete listing; the pods left out are logged. */
  @Override
  public List<Member> members() {
    Listing listing = list();
    listing.leftOut().log(LOG);
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
    MembersLeftOut leftOut = MembersLeftOut.because(KubernetesClusterResolverProvider.NAME, "pod(s)",
        "matching the selector left out of the cluster");
    NextPage next = new NextPage();
    try {
      session.forEachPage("list pods in namespace " + connection.namespace(),
          // The request's timeout bounds its answer's headers, the answer bounds its body, the deadline them all.
          (token, remaining) -> InBackground.start(CALLS, "kubernetes: a page", () -> page(token, next))
              .join(remaining),
          PodListJson.Page::continueToken,
          page -> {
            for (ListedPod pod : page.pods()) {
              Pods.Reading r = Pods.read(pod, addressType, port, portName);
              if (r.member() != null) {
                members.add(r.member());
              } else {
                leftOut.add(r.leftOutBecause());
              }
            }
          });
    } finally {
      next.close(); // a listing that failed after its next page was asked for, or ran out of time while reading one
    }
    return new Listing(members, leftOut);
  }

  /**
   * One page: {@code GET /api/v1/namespaces/NS/pods?labelSelector=…&limit=500[&continue=…]}, the answer the page
   * before it asked for already when there is one. Its own continue token asks for the next page as soon as it is
   * read, while the rest of this page is read and laid out.
   */
  private PodListJson.Page page(String token, NextPage next) {
    CompletableFuture<ApiCalls.Answer> asked = token == null ? null : next.take(token);
    ApiCalls.Answer response;
    try {
      response = (asked != null ? asked : send(token)).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new UncheckedIOException(new IOException(e.getCause()));
    }
    byte[] body = response.body();
    if (response.successful()) {
      return PodListJson.page(body, nextToken -> {
        if (!nextToken.equals(token)) { // the same token again is a loop CloudApi reports
          next.ask(nextToken);
        }
      });
    }
    throw failure(response, PodListJson.status(body), token);
  }

  private CompletableFuture<ApiCalls.Answer> send(String token) {
    return calls.get(pageUri(token));
  }

  /**
   * The request for the page after the one being read, sent as soon as that page's continue token is read. The
   * token pins the first page's resource version, so asking early reads the same snapshot. Its answer is taken by
   * the next page's call (retries of that call ask again); a listing that ends before taking it cancels it: the call
   * completes anyway (by its time) and its answer, read to its end, is dropped, so the connection goes back to the
   * pool. Once the listing has ended nothing more is asked for (a page still being read after the deadline gave up
   * on it).
   */
  private final class NextPage {
    private String token;
    private CompletableFuture<ApiCalls.Answer> answer;
    private boolean closed;

    synchronized void ask(String nextToken) {
      if (answer == null && !closed) {
        token = nextToken;
        answer = send(nextToken);
      }
    }

    /** The answer asked for {@code pageToken}, or {@code null} when none was (or it was taken). */
    synchronized CompletableFuture<ApiCalls.Answer> take(String pageToken) {
      CompletableFuture<ApiCalls.Answer> taken = pageToken.equals(token) ? answer : null;
      if (taken == null) {
        abandon();
      }
      token = null;
      answer = null;
      return taken;
    }

    /** Ends the listing's asking: what was asked for and not taken is cancelled, and nothing more is asked for. */
    synchronized void close() {
      closed = true;
      abandon();
    }

    private void abandon() {
      if (answer != null) {
        answer.cancel(true);
        answer = null;
        token = null;
      }
    }
  }

  /**
   * The page's URI as fabric8's own client writes a list's ({@code pods().inNamespace(ns).withLabelSelector(s)
   * .list(options)}): the query's parameters in the order of their names, each value escaped as a query value with
   * a space as {@code %20} ({@code PodListRequestTest}).
   */
  private URI pageUri(String token) {
    String master = connection.masterUrl();
    StringBuilder uri = new StringBuilder(master.endsWith("/") ? master.substring(0, master.length() - 1) : master)
        .append("/api/v1/namespaces/").append(connection.namespace()).append("/pods?");
    if (token != null) {
      uri.append("continue=").append(queryValue(token)).append('&');
    }
    uri.append("labelSelector=").append(queryValue(selector)).append("&limit=").append(PAGE_SIZE);
    return URI.create(uri.toString());
  }

  private static String queryValue(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The error for a page the API server refused, with what to change where we know it. */
  private RuntimeException failure(ApiCalls.Answer response, PodListJson.Status status, String token) {
    int code = response.status();
    String auditId = response.header("Audit-Id");
    if (code == 401 || code == 403) {
      return new ClusterResolverException(RbacAdvice.explain(code, connection.namespace(), status.message(),
          connection.credentialsDescription(), auditId));
    }
    if (code >= 300 && code < 400) {
      return new ClusterResolverException("kubernetes: list pods in namespace " + connection.namespace() + " at "
          + connection.masterUrl() + " was answered with a redirect (HTTP " + code + "),"
          + " which is not followed so that the credentials go to no other host: set"
          + " clusterresolver.kubernetes.endpoint (or the kubeconfig's server) to the API server itself", null, false);
    }
    if (code == 410 && token != null) {
      return new ContinueExpired("kubernetes: the continue token expired (410 Gone)"
          + (status.message() == null ? "" : ": " + status.message()), null);
    }
    // The Status it sent, the Audit-Id (the id its audit log and support know the request by), and how long it asked
    // to wait (Retry-After, as API Priority and Fairness sends with a 429).
    String answered = "list pods in namespace " + connection.namespace() + ": HTTP " + code
        + (status.message() == null ? "" : ": " + status.message());
    return new ApiErrorException(answered, ApiFailure.http(code, status.reason(), status.message(), auditId, 1)
        .withRetryAfter(RetryAfter.parse(response.header("Retry-After"), Instant.now())));
  }
}
