package io.clusterresolver.cloud;

import java.io.IOException;
import java.util.Optional;

/**
 * An answer that broke its {@link AnswerLimit}: larger than the size limit, or still arriving when
 * its time was up. Thrown from the body's stream, so it reaches the provider wrapped in whatever the
 * cloud's SDK makes of a failed read; {@link CloudApi} finds it in the cause chain and reports it
 * as it is, naming the endpoint and the limit.
 */
public final class AnswerLimitException extends IOException {

  private static final long serialVersionUID = 1L;

  private final boolean tooSlow;
  private final String advice;

  private AnswerLimitException(String message, boolean tooSlow, String advice) {
    super(message);
    this.tooSlow = tooSlow;
    this.advice = advice;
  }

  static AnswerLimitException tooLarge(String endpoint, long limitBytes, String limitKey, String advice) {
    return new AnswerLimitException("the answer from " + endpoint + " is larger than the limit of "
        + AnswerLimit.describe(limitBytes) + (limitKey == null ? "" : " (" + limitKey + ")"), false, advice);
  }

  static AnswerLimitException tooSlow(String endpoint, long budgetMillis, long readBytes) {
    return new AnswerLimitException("the answer from " + endpoint + " was still arriving after its " + budgetMillis
        + " ms (" + readBytes + " bytes read): an endpoint that sends its body this slowly is not the API", true, null);
  }

  /** Whether the answer ran out of time (else it was too large). */
  public boolean tooSlow() {
    return tooSlow;
  }

  /**
   * What to check, when the answer came from an endpoint that another setting than the provider's
   * {@code endpoint} points at ({@link AnswerLimit#advising}); empty for the provider's API.
   */
  public Optional<String> advice() {
    return Optional.ofNullable(advice);
  }

  /** The first {@code AnswerLimitException} in a cause chain, or {@code null}. */
  public static AnswerLimitException find(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof AnswerLimitException) {
        return (AnswerLimitException) t;
      }
      for (Throwable s : t.getSuppressed()) {
        if (s instanceof AnswerLimitException) {
          return (AnswerLimitException) s;
        }
      }
    }
    return null;
  }
}
