package io.clusterresolver.cloud;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Facts of a cloud's catalog that never change (a machine type's GPUs, an instance type's
 * accelerators, a location's VM sizes), kept for the life of the JVM so that each is asked once per
 * process. An entry is found by its <em>scope</em> (the API endpoint, and the project or subscription
 * when the catalog depends on it) and its <em>key</em> (the type, or the location). A lookup that
 * fails keeps nothing: the next resolve asks again. Bounded: once {@code maxEntries} facts are kept,
 * new ones are used but not kept. Membership is never a catalog fact. Thread-safe.
 *
 * @param <V> the fact kept, immutable
 */
public final class CatalogCache<V> {

  /** Entries a provider's catalog keeps unless it says otherwise: far more types than a cloud has. */
  public static final int DEFAULT_MAX_ENTRIES = 10_000;

  private final Map<Name, V> entries = new ConcurrentHashMap<>();
  private final int maxEntries;

  private CatalogCache(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1, not " + maxEntries);
    }
    this.maxEntries = maxEntries;
  }

  /** A cache of at most {@link #DEFAULT_MAX_ENTRIES} facts. */
  public static <V> CatalogCache<V> create() {
    return new CatalogCache<>(DEFAULT_MAX_ENTRIES);
  }

  /** A cache of at most {@code maxEntries} facts. */
  public static <V> CatalogCache<V> create(int maxEntries) {
    return new CatalogCache<>(maxEntries);
  }

  /** The kept fact, or empty when it was never asked (or was not kept). */
  public Optional<V> get(String scope, String key) {
    return Optional.ofNullable(entries.get(name(scope, key)));
  }

  /** Whether the fact is kept. */
  public boolean contains(String scope, String key) {
    return entries.containsKey(name(scope, key));
  }

  /**
   * The kept fact, or what {@code lookup} answers, kept. The lookup runs outside any lock (two threads may
   * both ask; either answer is the same fact); what it throws reaches the caller and nothing is kept.
   */
  public V get(String scope, String key, Supplier<? extends V> lookup) {
    Name name = name(scope, key);
    V known = entries.get(name);
    if (known != null) {
      return known;
    }
    V asked = Objects.requireNonNull(lookup.get(), "a catalog lookup answered null");
    keep(name, asked, false);
    return asked;
  }

  /** Keeps a fact learnt from an answer, replacing what was kept. */
  public void put(String scope, String key, V fact) {
    keep(name(scope, key), Objects.requireNonNull(fact, "fact"), false);
  }

  /** Keeps a fact unless one is kept already (a type an answer did not report, when another answer did). */
  public void putIfAbsent(String scope, String key, V fact) {
    keep(name(scope, key), Objects.requireNonNull(fact, "fact"), true);
  }

  /** How many facts are kept. */
  public int size() {
    return entries.size();
  }

  /** Forgets every fact (for tests). */
  public void clear() {
    entries.clear();
  }

  private void keep(Name name, V fact, boolean ifAbsent) {
    if (entries.size() >= maxEntries && !entries.containsKey(name)) {
      return; // full: used by this resolve, asked again by the next
    }
    if (ifAbsent) {
      entries.putIfAbsent(name, fact);
    } else {
      entries.put(name, fact);
    }
  }

  private static Name name(String scope, String key) {
    return new Name(Objects.requireNonNull(scope, "scope"), Objects.requireNonNull(key, "key"));
  }

  /**
   * An entry's name: two parts, so that no scope and key can spell another's. A class, not a record: a
   * record's {@code equals}/{@code hashCode} are bootstrapped through method handles, ~40 classes at a cold start.
   */
  private static final class Name {
    private final String scope;
    private final String key;

    Name(String scope, String key) {
      this.scope = scope;
      this.key = key;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Name && ((Name) other).scope.equals(scope) && ((Name) other).key.equals(key);
    }

    @Override
    public int hashCode() {
      return 31 * scope.hashCode() + key.hashCode();
    }
  }
}
