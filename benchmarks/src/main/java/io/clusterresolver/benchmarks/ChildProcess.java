package io.clusterresolver.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** One measured run of a child process, as the cold-start benchmarks start their commands. */
final class ChildProcess {

  private ChildProcess() {}

  /**
   * Starts {@code builder} with its standard input closed and waits for it to end; the wall time in
   * milliseconds from start to exit. A run that fails means nothing, so it throws instead: a process
   * still running after {@code limit} is killed, one that exits non-zero is reported with its code.
   *
   * @param what the command as the message names it
   */
  static double wallMillis(ProcessBuilder builder, String what, Duration limit)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("'" + what + "' did not finish within " + limit.toSeconds() + " s");
    }
    double millis = (System.nanoTime() - start) / 1e6;
    if (process.exitValue() != 0) {
      throw new IllegalStateException("'" + what + "' exited with " + process.exitValue());
    }
    return millis;
  }
}
