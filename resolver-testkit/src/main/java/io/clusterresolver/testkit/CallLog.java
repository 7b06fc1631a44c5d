package io.clusterresolver.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** What a simulation records of its requests: counts by operation and the last 10 000 requests. Thread-safe. */
final class CallLog {

  private static final int LIMIT = 10_000;

  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final Deque<SimulatedEc2.RecordedRequest> requests = new ArrayDeque<>();

  void record(SimulatedEc2.RecordedRequest request) {
    calls.computeIfAbsent(request.action(), k -> new AtomicInteger()).incrementAndGet();
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

  List<SimulatedEc2.RecordedRequest> requests() {
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
