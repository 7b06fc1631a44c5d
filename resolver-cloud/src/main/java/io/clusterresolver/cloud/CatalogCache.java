package io.clusterresolver.cloud;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
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

  /**
   * Facts of one resolve loaded ahead, each load on its own daemon thread: see {@link Prefetch}.
   *
   * @param session the resolve's session: {@link Prefetch#await} waits no longer than its deadline
   * @param scope the scope of every key
   * @param name the threads' name, also named by the errors: {@code cluster-resolver-PROVIDER-WHAT}
   * @param lookup the calls that answer some keys' facts
   */
  public Prefetch<V> prefetch(CloudApi.Session session, String scope, String name, Lookup<? extends V> lookup) {
    return new Prefetch<>(this, session, scope, null, name, lookup);
  }

  /**
   * Facts of one resolve loaded ahead on {@code threads} (a pool of {@link InBackground#daemonThreads(String, int)}
   * bounds how many loads run at once): see {@link Prefetch}.
   *
   * @param session the resolve's session: {@link Prefetch#await} waits no longer than its deadline
   * @param scope the scope of every key
   * @param threads where each load runs
   * @param name what a load is, named by the errors
   * @param lookup the calls that answer some keys' facts
   */
  public Prefetch<V> prefetch(CloudApi.Session session, String scope, Executor threads, String name,
      Lookup<? extends V> lookup) {
    return new Prefetch<>(this, session, scope, Objects.requireNonNull(threads, "threads"), name, lookup);
  }

  /**
   * The calls that answer the facts of some keys: one per key, or one per batch as the cloud's API takes them.
   *
   * @param <V> the fact
   */
  @FunctionalInterface
  public interface Lookup<V> {
    /**
     * The facts of {@code keys}, by key. A key left out of the answer has no fact: nothing is kept for it, and it is
     * missing from {@link Prefetch#await}'s answer.
     *
     * @param keys the keys to ask, sorted, none of them kept nor asked before by this prefetch
     * @throws RuntimeException when a call fails (a {@link io.clusterresolver.ClusterResolverException} of the
     *     session): it reaches the caller of {@link Prefetch#await}, and nothing is kept
     */
    Map<String, ? extends V> load(List<String> keys);
  }

  /**
   * Catalog facts of one resolve asked while the listing runs: a listing learns the keys it needs page by page (the
   * instance types, the first VM's location), {@linkplain #start starts} a load of those neither kept nor asked yet
   * on a daemon thread, and {@linkplain #await awaits} them all after its last page, so that the catalog's calls are
   * in flight beside the listing's instead of after it.
   *
   * <ul>
   *   <li>A key is asked at most once per prefetch; one kept (by this JVM's earlier resolves) is never asked.
   *   <li>{@link #await} answers every fact asked, even those a full cache could not keep, and asks itself, on the
   *       caller's thread, for what is still missing: what fails in the background is the caller's failure, as it
   *       was thrown (never a partial cluster).
   *   <li>{@link #cancel} stops the loads that have not ended; a caller that no longer needs them (its listing
   *       failed, or was empty) cancels in a {@code finally}.
   * </ul>
   *
   * <p>Thread-safe: pages may be read on the SDK's threads.
   *
   * @param <V> the fact kept, immutable
   */
  public static final class Prefetch<V> {
    private final CatalogCache<V> cache;
    private final CloudApi.Session session;
    private final String scope;
    /** Where a load runs; {@code null}: a daemon thread of its own. */
    private final Executor threads;
    private final String name;
    private final Lookup<? extends V> lookup;
    /** What this prefetch has asked or started to ask: guarded by {@code this}. */
    private final Set<String> asked = new HashSet<>();
    /** The loads started: guarded by {@code this}. */
    private final List<InBackground<Void>> loads = new ArrayList<>();
    /** Every fact this prefetch loaded, kept or not by the cache. */
    private final Map<String, V> loaded = new ConcurrentHashMap<>();

    private Prefetch(CatalogCache<V> cache, CloudApi.Session session, String scope, Executor threads, String name,
        Lookup<? extends V> lookup) {
      this.cache = cache;
      this.session = Objects.requireNonNull(session, "session");
      this.scope = Objects.requireNonNull(scope, "scope");
      this.threads = threads;
      this.name = Objects.requireNonNull(name, "name");
      this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    /** Starts a load of those of {@code keys} neither kept nor asked yet, if any, on another thread. */
    public void start(Collection<String> keys) {
      List<String> missing;
      synchronized (this) {
        missing = missing(keys);
        if (missing.isEmpty()) {
          return;
        }
        asked.addAll(missing);
        loads.add(threads == null ? InBackground.start(name, () -> load(missing))
            : InBackground.start(threads, name, () -> load(missing)));
      }
    }

    /**
     * The facts of {@code keys}: waits for every load started, within the session's deadline, then asks on this
     * thread for the keys still neither kept nor asked.
     *
     * @return the fact of each key that has one, in the order of {@code keys}
     * @throws RuntimeException what a load failed with, as the lookup threw it
     * @throws io.clusterresolver.ClusterResolverException when the deadline passes first, naming {@code name}
     */
    public Map<String, V> await(Collection<String> keys) {
      List<InBackground<Void>> started;
      synchronized (this) {
        started = List.copyOf(loads);
      }
      for (InBackground<Void> load : started) {
        try {
          load.join(session.deadline().remaining());
        } catch (UncheckedIOException e) {
          if (e.getCause() != null && e.getCause().getCause() instanceof TimeoutException) {
            throw session.deadline().timedOut(session.provider(), name, e);
          }
          throw e; // the lookup's own
        }
      }
      List<String> missing;
      synchronized (this) {
        missing = missing(keys);
        asked.addAll(missing);
      }
      if (!missing.isEmpty()) {
        load(missing);
      }
      Map<String, V> facts = new LinkedHashMap<>();
      for (String key : keys) {
        V fact = loaded.get(key);
        if (fact == null) {
          fact = cache.get(scope, key).orElse(null);
        }
        if (fact != null) {
          facts.put(key, fact);
        }
      }
      return facts;
    }

    /** Stops the loads that have not ended and waits for their end (see {@link InBackground#cancel()}). */
    public void cancel() {
      List<InBackground<Void>> started;
      synchronized (this) {
        started = List.copyOf(loads);
      }
      started.forEach(InBackground::cancel);
    }

    /** Those of {@code keys} neither asked nor kept, sorted: called holding {@code this}. */
    private List<String> missing(Collection<String> keys) {
      Set<String> missing = new TreeSet<>();
      for (String key : keys) {
        if (!asked.contains(key) && !cache.contains(scope, key)) {
          missing.add(key);
        }
      }
      return new ArrayList<>(missing);
    }

    private Void load(List<String> keys) {
      Map<String, ? extends V> answer = Objects.requireNonNull(lookup.load(keys), "a catalog lookup answered null");
      answer.forEach((key, fact) -> {
        loaded.put(key, Objects.requireNonNull(fact, "a catalog lookup answered null for a key"));
        cache.put(scope, key, fact);
      });
      return null;
    }

    @Override
    public String toString() {
      return "CatalogCache.Prefetch{" + name + ", " + scope + "}";
    }
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
