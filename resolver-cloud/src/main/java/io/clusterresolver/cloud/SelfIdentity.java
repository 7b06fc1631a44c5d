package io.clusterresolver.cloud;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * This process's identity (an instance id, a VM name) from a metadata server, asked at most once
 * per resolver: an identity never changes while the process runs, and an answer of "none" (off
 * the cloud) is kept too, so a resolve off-cloud does not wait on the metadata server every time.
 * Thread-safe.
 */
public final class SelfIdentity implements Supplier<Optional<String>> {

  private final Supplier<Optional<String>> source;
  private volatile Optional<String> identity;

  private SelfIdentity(Supplier<Optional<String>> source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  /** The identity {@code source} gives, asked on first use only. */
  public static SelfIdentity cached(Supplier<Optional<String>> source) {
    return new SelfIdentity(source);
  }

  /** No identity: explicit {@code task-type}/{@code task-id} or nothing. */
  public static SelfIdentity none() {
    return cached(Optional::empty);
  }

  @Override
  public Optional<String> get() {
    Optional<String> known = identity;
    if (known == null) {
      synchronized (this) {
        if (identity == null) {
          identity = Objects.requireNonNull(source.get(), "identity source returned null");
        }
        known = identity;
      }
    }
    return known;
  }
}
