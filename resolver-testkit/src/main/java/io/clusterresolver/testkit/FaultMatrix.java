package io.clusterresolver.testkit;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The scenarios of the TCK's fault matrix, how one run of a scenario ended, and the table of
 * outcomes each provider's run leaves in {@code target/fault-matrix/<provider>.md} (collected into
 * docs/reliability.md).
 */
final class FaultMatrix {

  private FaultMatrix() {}

  /** Every scenario, for a provider whose failing resolves must end within {@code bound}. */
  static List<Fault> scenarios(Duration bound) {
    Duration shortDelay = bound.dividedBy(20);
    List<Fault> all = new ArrayList<>();
    all.add(new Fault(Fault.Kind.THROTTLED, 2, false, Duration.ZERO));
    all.add(new Fault(Fault.Kind.THROTTLED, 0, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.SERVER_ERROR, 2, false, Duration.ZERO));
    all.add(new Fault(Fault.Kind.SERVER_ERROR, 2, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.CONNECTION_RESET, 2, false, Duration.ZERO));
    all.add(new Fault(Fault.Kind.CONNECTION_RESET, 0, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.TRUNCATED_BODY, 2, false, Duration.ZERO));
    all.add(new Fault(Fault.Kind.TRUNCATED_BODY, 2, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.MALFORMED_BODY, 1, false, Duration.ZERO));
    all.add(new Fault(Fault.Kind.MALFORMED_BODY, 0, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.SLOW, 2, false, shortDelay));
    all.add(new Fault(Fault.Kind.SLOW, 0, true, bound));
    all.add(new Fault(Fault.Kind.CREDENTIALS_REJECTED, 0, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.METADATA_ABSENT, 0, true, Duration.ZERO));
    all.add(new Fault(Fault.Kind.METADATA_SLOW, 0, true, bound));
    all.add(new Fault(Fault.Kind.METADATA_GARBAGE, 0, true, Duration.ZERO));
    return List.copyOf(all);
  }

  /** How a resolve under a fault ended. */
  enum Ending {
    /** The healthy answer. */
    RIGHT_CLUSTER,
    /** A {@link ClusterResolverException}: the source of truth did not answer. */
    SOURCE_ERROR,
    /** A {@link ConfigurationException}: the user must change something. */
    CONFIGURATION_ERROR,
    /** A resolution different from the healthy one: a partial or mixed cluster. */
    WRONG_CLUSTER,
    /** Any other exception: a bug (CLI exit 1). */
    UNEXPECTED_EXCEPTION,
    /** No answer within the bound. */
    HANG;

    boolean typedError() {
      return this == SOURCE_ERROR || this == CONFIGURATION_ERROR;
    }
  }

  /** One run: how it ended, how long it took, and what was thrown or returned. */
  record Outcome(Ending ending, Duration took, Throwable thrown, Resolution resolution) {

    String summary() {
      String detail = thrown == null ? "" : ": " + firstLine(thrown);
      return ending + " in " + took.toMillis() + " ms" + detail;
    }

    private static String firstLine(Throwable t) {
      String text = t.getClass().getSimpleName() + " " + t.getMessage();
      int newline = text.indexOf('\n');
      text = newline < 0 ? text : text.substring(0, newline);
      return text.length() > 160 ? text.substring(0, 160) + "…" : text;
    }
  }

  /**
   * Runs {@code resolve} on its own thread and classifies how it ended against {@code expected}, the
   * answer computed from the fixture (not the provider's own healthy answer, so that a provider wrong
   * in the same way every time is caught): a cluster other than {@code expected}, or a lost task
   * identity unless {@code identityMayBeLost} (a metadata fault), is a {@link Ending#WRONG_CLUSTER}; a
   * run that outlives {@code bound} by more than a second is a {@link Ending#HANG}.
   */
  static Outcome run(Callable<Resolution> resolve, Resolution expected, boolean identityMayBeLost, Duration bound) {
    ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fault-matrix");
      t.setDaemon(true);
      return t;
    });
    long start = System.nanoTime();
    try {
      Future<Resolution> answer = thread.submit(resolve);
      try {
        Resolution r = answer.get(bound.toMillis() + 1000, TimeUnit.MILLISECONDS);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        boolean identityLost = r.taskId().isEmpty() && r.taskType().isEmpty();
        boolean same = r.clusterSpec().equals(expected.clusterSpec())
            && (identityLost ? identityMayBeLost
                : r.taskId().equals(expected.taskId()) && r.taskType().equals(expected.taskType()));
        return new Outcome(same ? Ending.RIGHT_CLUSTER : Ending.WRONG_CLUSTER, took, null, r);
      } catch (ExecutionException e) {
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Throwable cause = e.getCause();
        Ending ending = cause instanceof ConfigurationException ? Ending.CONFIGURATION_ERROR
            : cause instanceof ClusterResolverException ? Ending.SOURCE_ERROR
            : Ending.UNEXPECTED_EXCEPTION;
        return new Outcome(ending, took, cause, null);
      } catch (TimeoutException e) {
        answer.cancel(true);
        return new Outcome(Ending.HANG, Duration.ofNanos(System.nanoTime() - start), null, null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a resolve", e);
      }
    } finally {
      thread.shutdownNow();
    }
  }

  private static final Map<String, Map<String, String>> TABLES = new TreeMap<>();

  /**
   * Records one row of a provider's table and rewrites {@code target/fault-matrix/<provider>.md}
   * (the working directory of a Maven test run is the module).
   */
  static synchronized void record(String provider, Fault fault, String outcome) {
    Map<String, String> rows = TABLES.computeIfAbsent(provider, p -> new TreeMap<>());
    rows.put(fault.toString(), outcome);
    StringBuilder md = new StringBuilder("| scenario | " + provider + " |\n|---|---|\n");
    rows.forEach((scenario, result) -> md.append("| ").append(scenario).append(" | ")
        .append(result.replace("|", "\\|")).append(" |\n"));
    try {
      Path dir = Path.of("target", "fault-matrix");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(provider + ".md"), md, StandardCharsets.UTF_8);
    } catch (IOException e) {
      // The table is a report; the assertions already ran.
    }
  }
}
