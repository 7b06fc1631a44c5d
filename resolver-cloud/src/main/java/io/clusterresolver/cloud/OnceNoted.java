package io.clusterresolver.cloud;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What a member source says once for its life instead of at every resolve: a machine left out for want of an
 * address, an accelerator type this version does not count, an unhealthy node. A source that resolves every few
 * seconds (a relay host, a long training job) would otherwise repeat the same line each time. At most {@value
 * #MAX_NOTED} notes are remembered; past that a new one is said every time (a note is never silenced for good by
 * forgetting). Thread-safe.
 */
public final class OnceNoted {

  /** How many notes one source remembers. */
  public static final int MAX_NOTED = 10_000;

  private final Set<String> noted = ConcurrentHashMap.newKeySet();

  /** Nothing noted yet. */
  public OnceNoted() {}

  /**
   * Notes {@code what}.
   *
   * @param what what is said, or a key naming it (a machine's id)
   * @return whether it was not noted before: the caller says it now
   */
  public boolean first(String what) {
    Objects.requireNonNull(what, "what");
    if (noted.size() >= MAX_NOTED) {
      return !noted.contains(what);
    }
    return noted.add(what);
  }

  /**
   * Logs {@code message} at {@code level} the first time {@code what} is noted.
   *
   * @param what a key naming the message (the message itself when it says all)
   * @param message built only when it is logged
   */
  public void log(Logger log, Level level, String what, Supplier<String> message) {
    if (first(what)) {
      log.log(level, message);
    }
  }
}
