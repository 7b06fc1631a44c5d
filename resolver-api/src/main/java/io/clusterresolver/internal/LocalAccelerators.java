package io.clusterresolver.internal;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The accelerators of this host, as resolvers report them for their own task: GPUs listed by
 * {@code nvidia-smi} when it is on the {@code PATH}, narrowed to {@code CUDA_VISIBLE_DEVICES} when
 * that is set. No {@code nvidia-smi}, a failing one or one that does not answer in time: no GPUs.
 * Shared by every provider that reports this host's own accelerators.
 */
public final class LocalAccelerators {

  /** The device type name resolvers report GPUs under, as TensorFlow does. */
  public static final String GPU = "GPU";

  private LocalAccelerators() {}

  /**
   * The accelerators visible to this process: {@code {"GPU": n}}, or an empty map.
   *
   * @param environment the environment to read {@code PATH} and {@code CUDA_VISIBLE_DEVICES} from
   * @param timeout how long {@code nvidia-smi} may take
   */
  public static Map<String, Integer> detect(Map<String, String> environment, Duration timeout) {
    String visible = environment.get("CUDA_VISIBLE_DEVICES");
    if (visible != null) {
      // The launcher already chose this process's GPUs: count them without asking the driver.
      int count = visibleDeviceIds(visible).size();
      return count == 0 ? Map.of() : Map.of(GPU, count);
    }
    // Plain branches, no lambdas: this runs on every off-cloud resolve, where each lambda shape is a class
    // spun at start (issue 23).
    Optional<Path> nvidiaSmi = findOnPath("nvidia-smi", environment.get("PATH"));
    if (nvidiaSmi.isEmpty()) {
      return Map.of();
    }
    List<String> gpus = listGpus(nvidiaSmi.get(), timeout).orElse(List.of());
    return gpus.isEmpty() ? Map.of() : Map.of(GPU, gpus.size());
  }

  /**
   * The device ids of a {@code CUDA_VISIBLE_DEVICES} value: {@code ""} and {@code -1} (CUDA's
   * "none") give no device; blank items are dropped.
   */
  public static List<String> visibleDeviceIds(String cudaVisibleDevices) {
    List<String> ids = new ArrayList<>();
    for (String item : cudaVisibleDevices.split(",")) {
      String id = item.trim();
      if (id.isEmpty()) {
        continue;
      }
      if (id.equals("-1")) {
        break; // CUDA ignores this id and every one after it
      }
      ids.add(id);
    }
    return ids;
  }

  /** An executable of that name in one of the {@code PATH} directories. */
  public static Optional<Path> findOnPath(String executable, String path) {
    if (path == null || path.isEmpty()) {
      return Optional.empty();
    }
    for (String directory : path.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(directory, executable);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * The GPU lines of {@code nvidia-smi --query-gpu=index,name --format=csv,noheader}, or empty
   * when it fails or times out.
   */
  static Optional<List<String>> listGpus(Path nvidiaSmi, Duration timeout) {
    Process process;
    try {
      process = new ProcessBuilder(
              nvidiaSmi.toString(), "--query-gpu=index,name", "--format=csv,noheader")
          .redirectErrorStream(true)
          .start();
    } catch (IOException e) {
      log(System.Logger.Level.DEBUG, "Could not run " + nvidiaSmi + ": " + e);
      return Optional.empty();
    }
    try {
      process.getOutputStream().close();
      // Reads in this thread: nvidia-smi prints a few lines, well below any pipe buffer.
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        log(System.Logger.Level.WARNING,
            nvidiaSmi + " did not answer within " + timeout.toMillis() + " ms: reporting no GPUs");
        return Optional.empty();
      }
      String output = read(process.getInputStream());
      if (process.exitValue() != 0) {
        log(System.Logger.Level.DEBUG, nvidiaSmi + " exited with " + process.exitValue() + ": reporting no GPUs");
        return Optional.empty();
      }
      List<String> gpus = new ArrayList<>();
      for (String line : output.split("\\R")) {
        if (!line.isBlank()) {
          gpus.add(line.trim());
        }
      }
      return Optional.of(gpus);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Logs through a logger looked up only now: looking one up at class initialization sets up
   * java.util.logging (about a hundred classes) on every resolve, which has nothing to log when no
   * {@code nvidia-smi} is on the {@code PATH} (issue 23).
   */
  private static void log(System.Logger.Level level, String message) {
    System.getLogger(LocalAccelerators.class.getName()).log(level, message);
  }

  private static String read(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    in.transferTo(out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
