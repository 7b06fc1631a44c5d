package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.internal.UntrustedText;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * How a cloud provider calls its API: every call of one resolve under one {@link Deadline}, every
 * page followed, and every failure turned into one explained {@link ClusterResolverException} —
 * the provider, the operation and page, the HTTP status, the API's error code and message, the
 * request id, the attempts, and what to change — written the same way for every cloud. A call whose
 * failure {@linkplain ApiFailure#isRetryable() is retryable} is tried again by its {@link RetryPolicy}
 * (backoff or the API's {@code Retry-After}, never past the deadline), and its attempts are counted
 * here, in one place: a provider turns its SDK's own retries off, lending the SDK's retry algorithm to
 * {@link RetryPolicy#delegating} when it wants that algorithm's waits, or keeps the SDK's loop and
 * uses {@link RetryPolicy#none()}. Immutable and thread-safe.
 *
 * <pre>{@code
 * CloudApi api = CloudApi.builder("aws", AwsFailures::describe)
 *     .permissions("ec2:DescribeInstances")
 *     .retryPolicy(RetryPolicy.builder().maxAttempts(3).build())
 *     .build();
 * CloudApi.Session session = api.session(timeout);
 * session.forEachPage("DescribeInstances",
 *     (token, remaining) -> ec2.describeInstances(request(token, remaining)),
 *     DescribeInstancesResponse::nextToken,
 *     page -> collect(page));
 * }</pre>
 */
public final class CloudApi {

  /** Reads the facts of a failure off an SDK's exception (an {@link ApiErrorException} carries its own). */
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
  /** The least time a wait must leave for the attempt after it; less, and the attempt would only time out. */
  private static final Duration NEXT_ATTEMPT = Duration.ofMillis(100);

  private final RetryPolicy retry;
  private final LongSupplier nanoTime;
  private final Sleeper sleeper;
  private final DoubleSupplier random;

  /** Waits between attempts; tests give one that moves their clock instead of sleeping. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration wait) throws InterruptedException;
  }

  private CloudApi(Builder b) {
    this.retry = b.retry;
    this.nanoTime = b.nanoTime;
    this.sleeper = b.sleeper;
    this.random = b.random;
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
    return new Session(Deadline.after(timeout, nanoTime));
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

    /** The provider whose calls these are, first word of their messages. */
    String provider() {
      return provider;
    }

    /**
     * Runs one call.
     *
     * @throws ClusterResolverException when it fails (after the retries of the {@link RetryPolicy}) or time is up
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

    /**
     * Runs a call, retrying it by the policy; its attempts are counted here and nowhere else, its waits chosen by the
     * policy (its backoff or its strategy's) but never shorter than the API's {@code Retry-After}.
     */
    private <T> T run(String operation, Call<T> call) {
      RetryPolicy.Waits waits = retry.begin(random);
      Duration first = waits.first();
      if (first.compareTo(Duration.ZERO) > 0) {
        // A client-side rate limit's wait: the call has not been sent, so only the deadline can end it.
        if (first.plus(NEXT_ATTEMPT).compareTo(deadline.remaining()) >= 0) {
          throw deadline.timedOut(provider, operation, null);
        }
        try {
          sleeper.sleep(first);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new ClusterResolverException(provider + ": " + operation + " was interrupted before it was sent");
        }
      }
      int attempts = 0;
      for (int attempt = 1; ; attempt++) {
        deadline.check(provider, attempt == 1 ? operation : operation + " (" + attempts + " attempts)");
        T answer;
        try {
          answer = call.run(atLeastOneMs(deadline.remaining()));
        } catch (ClusterResolverException e) {
          throw e;
        } catch (NotTheApiException e) {
          throw new ClusterResolverException(describe(operation,
              ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, e.getMessage(), 1)), e, false);
        } catch (RuntimeException e) {
          AnswerLimitException limit = AnswerLimitException.find(e);
          if (limit != null && !limit.tooSlow()) {
            throw new ClusterResolverException(provider + ": " + operation + ": " + limit.getMessage() + "; "
                + limit.advice().orElse("check that " + endpointProperty + " points at the API"), e);
          }
          if (deadline.expired() || limit != null) {
            throw deadline.timedOut(provider, operation + (attempt == 1 ? "" : " (" + attempt + " attempts)")
                + (limit == null ? "" : " (" + limit.getMessage() + ")"), e);
          }
          ApiFailure read = e instanceof ApiErrorException ? ((ApiErrorException) e).failure() : failures.read(e);
          attempts += read.attempts();
          ApiFailure f = read.withAttempts(attempts);
          // More than one attempt in one call: the SDK retried it already, and retrying again would multiply.
          if (!f.isRetryable() || read.attempts() > 1 || attempt >= retry.maxAttempts()) {
            throw explain(operation, f, e);
          }
          Duration wait = waits.next(f).orElse(null);
          if (wait == null) {
            throw explain(operation, f, e); // the strategy's retry quota is spent
          }
          if (f.retryAfter() != null && f.retryAfter().compareTo(wait) > 0) {
            wait = f.retryAfter();
          }
          Duration left = deadline.remaining();
          if (wait.plus(NEXT_ATTEMPT).compareTo(left) >= 0) {
            throw gaveUp(operation, f, wait, left, e);
          }
          try {
            sleeper.sleep(wait);
          } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw explain(operation, f, e);
          }
          continue;
        }
        waits.succeeded();
        return answer;
      }
    }

    /** The deadline's error for a retry whose wait would end after it: not waited for, naming the last failure. */
    private ClusterResolverException gaveUp(String operation, ApiFailure f, Duration wait, Duration left,
        RuntimeException cause) {
      String last = describe(operation, f).substring(provider.length() + 2 + operation.length());
      String why = wait.equals(f.retryAfter()) ? "the API asked to wait " + wait.toMillis() + " ms (Retry-After)"
          : "the next backoff is " + wait.toMillis() + " ms";
      return new ClusterResolverException(deadline.timedOut(provider, operation, null).getMessage() + ": " + why
          + " and " + left.toMillis() + " ms are left, so it gave up; the last attempt" + last, cause);
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
    private RetryPolicy retry = RetryPolicy.defaults();
    private LongSupplier nanoTime = System::nanoTime;
    private Sleeper sleeper = wait -> Thread.sleep(wait.toMillis(), (int) (wait.toNanos() % 1_000_000));
    private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();

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

    /**
     * How failed calls are retried; {@link RetryPolicy#defaults()} unless set. Use {@link RetryPolicy#none()}
     * when the SDK retries itself, so that no call is retried twice over.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retry = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** A test's time: its clock (nanoseconds), what waits (moving that clock) and the jitter (in [0, 1)). */
    Builder time(LongSupplier nanoTime, Sleeper sleeper, DoubleSupplier random) {
      this.nanoTime = nanoTime;
      this.sleeper = sleeper;
      this.random = random;
      return this;
    }

    public CloudApi build() {
      return new CloudApi(this);
    }
  }
}
