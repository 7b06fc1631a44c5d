package io.clusterresolver.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts passed, failed and skipped cases per file and in total, with the reason of every skip,
 * and prints {@code conformance: N passed, M failed, K skipped}. A skip without a reason is not
 * possible: {@link #skipped} requires one.
 */
public final class Tally {

  private static final Map<String, Tally> FILES = new LinkedHashMap<>();

  private final String file;
  private int passed;
  private int failed;
  private int skipped;
  private final Map<String, Integer> skipReasons = new TreeMap<>();
  private final List<String> failures = new ArrayList<>();

  private Tally(String file) {
    this.file = file;
  }

  /** The tally of one file (created on first use). */
  public static synchronized Tally of(String file) {
    return FILES.computeIfAbsent(file, Tally::new);
  }

  /** A tally outside the run's totals (for the runner's own tests). */
  static Tally detached(String name) {
    return new Tally(name);
  }

  public synchronized void passed() {
    passed++;
  }

  public synchronized void failed(String caseId, String why) {
    failed++;
    failures.add(caseId + ": " + why);
  }

  /** A skipped case, with its reason. */
  public synchronized void skipped(String reason) {
    if (reason == null || reason.isBlank()) {
      throw new IllegalArgumentException("A skip needs a reason");
    }
    skipped++;
    skipReasons.merge(reason, 1, Integer::sum);
  }

  /** A step skipped inside a case that otherwise ran: only its reason is recorded. */
  public synchronized void skippedStep(String reason) {
    skipReasons.merge("(step) " + reason, 1, Integer::sum);
  }

  public synchronized int passedCount() {
    return passed;
  }

  public synchronized int failedCount() {
    return failed;
  }

  public synchronized int skippedCount() {
    return skipped;
  }

  /** {@code conformance [file]: N passed, M failed, K skipped}, then each skip reason and failure. */
  public synchronized String report() {
    StringBuilder out = new StringBuilder(line(file, passed, failed, skipped));
    skipReasons.forEach((reason, count) -> out.append("\n  skipped ").append(count).append("x: ").append(reason));
    failures.forEach(f -> out.append("\n  FAILED ").append(f));
    return out.toString();
  }

  /** Prints this file's report. */
  public void print() {
    System.out.println(report());
  }

  /** The line over every file counted in this JVM, or empty when nothing ran. */
  public static synchronized String totalLine() {
    int p = 0;
    int f = 0;
    int s = 0;
    for (Tally t : FILES.values()) {
      p += t.passed;
      f += t.failed;
      s += t.skipped;
    }
    return FILES.isEmpty() ? "" : line("total, " + FILES.size() + " files", p, f, s);
  }

  private static String line(String what, int passed, int failed, int skipped) {
    return "conformance [" + what + "]: " + passed + " passed, " + failed + " failed, " + skipped + " skipped";
  }
}
