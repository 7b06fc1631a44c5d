package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.internal.UntrustedText;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How a cloud provider calls its API: every call of one resolve under one {@link Deadline}, every
 * page followed, and every failure turned into one explained {@link ClusterResolverException} —
 * the provider, the operation and page, the HTTP status, the API's error code and message, the
 * request id, the attempts, and what to change — written the same way for every cloud. Retries
 * and backoff stay with the cloud's SDK; this only bounds them. Immutable and thread-safe.
 *
 * <pre>{@code
 * CloudApi api = CloudApi.builder("aws", AwsFailures::describe)
 *     .permissions("ec2:DescribeInstances")
 *     .build();
 * CloudApi.Session session = api.session(timeout);
 * session.forEachPage("DescribeInstances",
 *     (token, remaining) -> ec2.describeInstances(request(token, remaining)),
 *     DescribeInstancesResponse::nextToken,
 *     page -> collect(page));
 * }</pre>
 */
public final class CloudApi {

  /** Reads the facts of a failure off an SDK's exception. */
  @FunctionalInterface
  public interface FailureReader {
    /** The failure this exception reports; never {@code null}. */
    ApiFailure read(RuntimeException e);
  }

  /** One call: given what is left of the deadline (to set as the SDK's call timeout). */
  @FunctionalInterface
  public interface Call<T> {
    T run(Duration remaining);
  }

  /** One page: given the token of the page (or {@code null} for the first) and what is left of the deadline. */
  @FunctionalInterface
  public interface PageCall<P> {
    P fetch(String pageToken, Duration remaining);
  }

  private final String provider;
  private final FailureReader failures;
  private final String permissions;
  private final String credentialsHint;
  private final String endpointProperty;
  private final String apiName;

  private CloudApi(Builder b) {
    this.apiName = b.apiName;
    this.provider = b.provider;
    this.failures = b.failures;
    this.permissions = b.permissions;
    this.credentialsHint = b.credentialsHint;
    this.endpointProperty = "clusterresolver." + b.provider + ".endpoint";
  }

  /**
   * A builder.
   *
   * @param provider the provider name, first word of every message
   * @param failures reads the facts off the SDK's exceptions
   */
  public static Builder builder(String provider, FailureReader failures) {
    return new Builder(provider, failures);
  }

  /** The calls of one resolve, under one deadline of {@code timeout}. */
  public Session session(Duration timeout) {
    return new Session(Deadline.after(timeout));
  }

  /**
   * The calls of one resolve under one {@link Deadline}: one session per resolve. Thread-safe (it
   * holds only its immutable deadline), so calls of one resolve may run on several threads, such as
   * a catalog call beside the listing's next page.
   */
  public final class Session {
    private final Deadline deadline;

    private Session(Deadline deadline) {
      this.deadline = deadline;
    }

    /** The deadline every call of this session runs under. */
    public Deadline deadline() {
      return deadline;
    }

    /**
     * Runs one call.
     *
     * @throws ClusterResolverException when it fails (after the SDK's retries) or time is up
     */
    public <T> T call(String operation, Call<T> call) {
      return run(operation, call);
    }

    /**
     * Fetches every page: the first with a {@code null} token, then while {@code nextToken} gives a
     * non-empty one. Each page is handed to {@code consumer} before the next is fetched (so only
     * what the provider keeps stays in memory). A page that fails fails the whole listing: the
     * caller never sees a partial one.
     *
     * @return the number of pages fetched
     * @throws ClusterResolverException naming the operation and the page that failed
     * @throws ConfigurationException when there are no credentials to call with
     */
    public <P> int forEachPage(String operation, PageCall<P> fetch, Function<P, String> nextToken, Consumer<P> consumer) {
      String token = null;
      int page = 0;
      do {
        page++;
        String what = operation + " (page " + page + ")";
        String pageToken = token;
        P answer = run(what, remaining -> fetch.fetch(pageToken, remaining));
        consumer.accept(answer);
        String next = nextToken.apply(answer);
        if (next != null && next.equals(token)) {
          throw new ClusterResolverException(provider + ": " + what + " returned the same page token again ("
              + "the API is looping); check " + endpointProperty);
        }
        token = next;
      } while (token != null && !token.isEmpty());
      return page;
    }

    private <T> T run(String operation, Call<T> call) {
      deadline.check(provider, operation);
      try {
        return call.run(atLeastOneMs(deadline.remaining()));
      } catch (ClusterResolverException e) {
        throw e;
      } catch (NotTheApiException e) {
        throw new ClusterResolverException(describe(operation,
            ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, e.getMessage(), 1)), e, false);
      } catch (RuntimeException e) {
        AnswerLimitException limit = AnswerLimitException.find(e);
        if (limit != null && !limit.tooSlow()) {
          throw new ClusterResolverException(provider + ": " + operation + ": " + limit.getMessage()
              + "; check that " + endpointProperty + " points at the API", e);
        }
        if (deadline.expired() || limit != null) {
          throw deadline.timedOut(provider, operation + (limit == null ? "" : " (" + limit.getMessage() + ")"), e);
        }
        throw explain(operation, failures.read(e), e);
      }
    }

    private RuntimeException explain(String operation, ApiFailure f, RuntimeException cause) {
      if (f.kind() == ApiFailure.Kind.TIMEOUT) {
        return deadline.timedOut(provider, operation, cause);
      }
      if (f.kind() == ApiFailure.Kind.CREDENTIALS) {
        // Nothing was asked of the cloud: the user must configure credentials (exit 2).
        return new ConfigurationException(provider + ": no credentials to sign " + operation + " with ("
            + firstLine(f.message()) + ")" + (credentialsHint == null ? "" : ": " + credentialsHint));
      }
      return new ClusterResolverException(describe(operation, f), cause);
    }
  }

  /** The sentence for a failure: what failed, how, and what to change. */
  String describe(String operation, ApiFailure f) {
    StringBuilder s = new StringBuilder(provider).append(": ").append(operation);
    String attempts = f.attempts() == 1 ? "1 attempt" : f.attempts() + " attempts";
    switch (f.kind()) {
      case HTTP_ERROR:
        s.append(" failed with HTTP ").append(f.httpStatus());
        if (f.errorCode() != null) {
          s.append(' ').append(UntrustedText.escape(f.errorCode(), 100));
        }
        if (f.message() != null && !f.message().isBlank()) {
          s.append(" (").append(firstLine(f.message())).append(')');
        }
        s.append(", request id ").append(f.requestId() == null ? "(none)" : UntrustedText.escape(f.requestId(), 100))
            .append(", after ").append(attempts);
        break;
      case MALFORMED_RESPONSE:
        s.append(" returned an answer that is not the API's format (")
            .append(apiName == null ? "" : (startsWithVowel(apiName) ? "not an " : "not a ") + apiName + " answer: ").append(firstLine(f.message()))
            .append("); check that ").append(endpointProperty).append(" points at the API");
        break;
      case CREDENTIALS:
        s.append(" has no usable credentials (").append(firstLine(f.message())).append(')');
        break;
      default:
        s.append(" failed without a valid HTTP response (").append(firstLine(f.message())).append(") after ")
            .append(attempts).append("; check ").append(endpointProperty).append(" and the network path to the API");
    }
    if (f.isAuthorization()) {
      s.append("; check the credentials").append(permissions == null ? "" : " and that they allow " + permissions);
    } else if (f.isThrottling()) {
      s.append("; the API is throttling this account: raise clusterresolver.").append(provider)
          .append(".timeout or resolve less often");
    }
    return s.toString();
  }

  /** "an EC2 answer", "an Azure Resource Manager answer", "a Compute Engine answer". */
  private static boolean startsWithVowel(String name) {
    return !name.isEmpty() && "AEIOUaeiou".indexOf(name.charAt(0)) >= 0;
  }

  /** The first line of an API's or SDK's text, at most 300 code points, escaped and without URL passwords. */
  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    int nl = s.indexOf('\n');
    return UntrustedText.withoutUserInfo(UntrustedText.escape(nl < 0 ? s : s.substring(0, nl), 300));
  }

  private static Duration atLeastOneMs(Duration d) {
    return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
  }

  /** Builds a {@link CloudApi}. */
  public static final class Builder {
    private final String provider;
    private final FailureReader failures;
    private String permissions;
    private String credentialsHint;
    private String apiName;

    private Builder(String provider, FailureReader failures) {
      this.provider = Objects.requireNonNull(provider, "provider");
      this.failures = Objects.requireNonNull(failures, "failures");
    }

    /** The permissions the caller needs, named in the hint of an authorization failure. */
    public Builder permissions(String permissions) {
      this.permissions = permissions;
      return this;
    }

    /** How to configure credentials, said when none could be found ({@link ApiFailure.Kind#CREDENTIALS}). */
    public Builder credentialsHint(String hint) {
      this.credentialsHint = hint;
      return this;
    }

    /**
     * The API's name in messages about an answer that is not in its format: "not a Compute Engine
     * answer" ({@link NotTheApiException}, {@link ApiFailure.Kind#MALFORMED_RESPONSE}).
     */
    public Builder apiName(String name) {
      this.apiName = name;
      return this;
    }

    public CloudApi build() {
      return new CloudApi(this);
    }
  }
}
