package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The machines of one simulation by key (an instance id, a pod's {@code namespace/name}, a node's
 * resource name): the adding, changing, removing and listing that every simulation offers, under one
 * lock. Every change moves the {@linkplain #version() version} on, so that a simulation can keep what
 * it rendered of one version. Thread-safe; {@link #locked} runs a longer read (or a change of the
 * simulation's own state that goes with the machines) under the same lock.
 *
 * @param <M> the machine, an immutable record
 */
final class Fleet<M> {

  private final Map<String, M> machines;
  private final String noun;
  private final Consumer<? super M> forget;
  private long version;

  private Fleet(Map<String, M> machines, String noun, Consumer<? super M> forget) {
    this.machines = machines;
    this.noun = noun;
    this.forget = forget;
  }

  /**
   * Machines in the order added (a replaced one keeps its place).
   *
   * @param noun what a machine is called in messages, such as {@code instance}
   * @param forget hears of every machine replaced or removed, under the lock (to drop what was rendered of it)
   */
  static <M> Fleet<M> inOrderAdded(String noun, Consumer<? super M> forget) {
    return new Fleet<>(new LinkedHashMap<>(), noun, forget);
  }

  /** Machines in the order added (a replaced one keeps its place). */
  static <M> Fleet<M> inOrderAdded(String noun) {
    return inOrderAdded(noun, m -> {});
  }

  /** Machines in key order. */
  static <M> Fleet<M> inKeyOrder(String noun) {
    return new Fleet<>(new TreeMap<>(), noun, m -> {});
  }

  /** Machines {@code from} to {@code from + n - 1}, each made by {@code make} from its number. */
  static <M> List<M> numbered(int from, int n, IntFunction<M> make) {
    List<M> made = new ArrayList<>(n);
    for (int i = from; i < from + n; i++) {
      made.add(make.apply(i));
    }
    return made;
  }

  /** Adds (or replaces) one machine. */
  synchronized void put(String key, M machine) {
    replace(key, machine);
    version++;
  }

  /** Adds (or replaces) machines, in one change. */
  synchronized void putAll(Iterable<? extends M> added, Function<? super M, String> keyOf) {
    for (M machine : added) {
      replace(keyOf.apply(machine), machine);
    }
    version++;
  }

  /** Changes a machine in place; the change keeps its key. */
  synchronized void update(String key, UnaryOperator<M> change) {
    M current = machines.get(key);
    if (current == null) {
      throw new IllegalArgumentException("No " + noun + " " + key + " in the simulation");
    }
    replace(key, change.apply(current));
    version++;
  }

  /** Changes, in place, the machines a predicate selects. */
  synchronized void updateIf(Predicate<? super M> which, UnaryOperator<M> change) {
    for (Map.Entry<String, M> e : machines.entrySet()) {
      if (which.test(e.getValue())) {
        forget.accept(e.setValue(change.apply(e.getValue())));
      }
    }
    version++;
  }

  /** Removes a machine; true when it was there. */
  synchronized boolean remove(String key) {
    M removed = machines.remove(key);
    forgetIfAny(removed);
    version++;
    return removed != null;
  }

  /** Removes the machines a predicate selects; how many. */
  synchronized int removeIf(Predicate<? super M> which) {
    List<String> gone = new ArrayList<>();
    machines.forEach((key, machine) -> {
      if (which.test(machine)) {
        gone.add(key);
      }
    });
    gone.forEach(key -> forget.accept(machines.remove(key)));
    version++;
    return gone.size();
  }

  /** Removes every machine. */
  synchronized void clear() {
    machines.values().forEach(forget);
    machines.clear();
    version++;
  }

  /** Moves the version on without changing a machine: the simulation's own reason to drop what it rendered. */
  synchronized void touch() {
    version++;
  }

  /** A machine by key, or {@code null} (also for a {@code null} key). */
  synchronized M get(String key) {
    return key == null ? null : machines.get(key);
  }

  /** A snapshot of the machines, in the fleet's order. */
  synchronized List<M> list() {
    return List.copyOf(machines.values());
  }

  /** How many changes the fleet has seen. */
  synchronized long version() {
    return version;
  }

  /** The machines and the version they are of, read at once. */
  synchronized Snapshot<M> snapshot() {
    return new Snapshot<>(version, List.copyOf(machines.values()));
  }

  /** Each machine with its key, in the fleet's order, under the lock. */
  synchronized void forEach(BiConsumer<String, ? super M> action) {
    machines.forEach(action);
  }

  /** Runs {@code action} under the fleet's lock. */
  synchronized <T> T locked(Supplier<T> action) {
    return action.get();
  }

  private void replace(String key, M machine) {
    forgetIfAny(machines.put(key, machine));
  }

  private void forgetIfAny(M machine) {
    if (machine != null) {
      forget.accept(machine);
    }
  }

  /**
   * The machines of one version.
   *
   * @param version the {@linkplain #version() version}
   * @param machines the machines, in the fleet's order
   */
  record Snapshot<M>(long version, List<M> machines) {}
}
