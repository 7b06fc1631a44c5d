package io.clusterresolver.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a simulation saw: calls counted by operation, and the last 10 000 requests. Thread-safe.
 *
 * @param <R> the simulation's recorded request type
 */
final class CallLog<R> {

  private static final int LIMIT = 10_000;

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Deque<R> requests = new ArrayDeque<>();

  void record(String operation, R request) {
    calls.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
    synchronized (requests) {
      if (requests.size() >= LIMIT) {
        requests.removeFirst();
      }
      requests.addLast(request);
    }
  }

  int count(String operation) {
    AtomicInteger n = calls.get(operation);
    return n == null ? 0 : n.get();
  }

  Map<String, Integer> counts() {
    Map<String, Integer> copy = new TreeMap<>();
    calls.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  List<R> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  void reset() {
    calls.clear();
    synchronized (requests) {
      requests.clear();
    }
  }
}
