package io.clusterresolver.runtime;

import io.clusterresolver.proto.DeviceFilters;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * How {@link Cluster#connect} connects: the local task (TensorFlow's {@code job_name} and {@code
 * task_index}, default {@code localhost} / 0), the protocol ({@code grpc}), device filters,
 * timeouts and transport security. Immutable; build with {@link #builder()}.
 *
 * @param jobName the local task's job
 * @param taskIndex the local task's index
 * @param protocol the protocol; only {@code grpc} is supported
 * @param deviceFilters the device filters sent to every task
 * @param connectTimeout how long to keep trying to reach every task (tasks start at different times)
 * @param callTimeout the deadline of each call
 * @param tls TLS for the connections to the tasks (and the local task's server); {@code null} = plaintext
 * @param localFunctions functions served by the local task's server when {@code connect} starts one
 * @param localAccelerators accelerators of the local task's server when {@code connect} starts one
 * @param reuseChannels whether connections share this process's open channels to the same addresses (default
 *     true): connecting again then reuses the HTTP/2 connections. False opens fresh ones, closed with the
 *     connection
 */
public record ConnectOptions(
    String jobName,
    int taskIndex,
    String protocol,
    DeviceFilters deviceFilters,
    Duration connectTimeout,
    Duration callTimeout,
    TlsConfig tls,
    Map<String, TaskFunction> localFunctions,
    Map<String, Integer> localAccelerators,
    boolean reuseChannels) {

  /** TensorFlow's default local job name. */
  public static final String DEFAULT_JOB_NAME = "localhost";

  /** Checks the values as the builder does, and keeps unmodifiable copies of the local functions and accelerators. */
  public ConnectOptions {
    checkJobName(jobName);
    checkTaskIndex(taskIndex);
    positive(connectTimeout, "connect timeout");
    positive(callTimeout, "call timeout");
    Objects.requireNonNull(protocol, "protocol");
    Objects.requireNonNull(deviceFilters, "deviceFilters");
    localFunctions = Map.copyOf(localFunctions);
    localAccelerators = Map.copyOf(localAccelerators);
  }

  private static String checkJobName(String jobName) {
    if (jobName == null || jobName.isEmpty()) {
      throw new IllegalArgumentException("The local job name must not be empty");
    }
    return jobName;
  }

  private static int checkTaskIndex(int taskIndex) {
    if (taskIndex < 0) {
      throw new IllegalArgumentException("The local task index must be >= 0, not " + taskIndex);
    }
    return taskIndex;
  }

  private static Duration positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("The " + what + " must be positive, not " + d);
    }
    return d;
  }

  /** The defaults: job {@code localhost}, task 0, {@code grpc}, no filters, 30 s / 2 s timeouts. */
  public static ConnectOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String toString() {
    return "ConnectOptions{job=" + jobName + ", task=" + taskIndex + ", protocol=" + protocol
        + ", filters=" + deviceFilters + ", connectTimeout=" + connectTimeout + ", callTimeout="
        + callTimeout + ", tls=" + tls + "}";
  }

  /** Builds {@link ConnectOptions}. */
  public static final class Builder {
    private String jobName = DEFAULT_JOB_NAME;
    private int taskIndex;
    private String protocol = "grpc";
    private DeviceFilters deviceFilters = DeviceFilters.none();
    private Duration connectTimeout = Duration.ofSeconds(30);
    private Duration callTimeout = Duration.ofSeconds(2);
    private TlsConfig tls;
    private final Map<String, TaskFunction> localFunctions = new LinkedHashMap<>();
    private final Map<String, Integer> localAccelerators = new TreeMap<>();
    private boolean reuseChannels = true;

    private Builder() {}

    public Builder reuseChannels(boolean reuse) {
      this.reuseChannels = reuse;
      return this;
    }

    public Builder jobName(String jobName) {
      this.jobName = checkJobName(jobName);
      return this;
    }

    public Builder taskIndex(int taskIndex) {
      this.taskIndex = checkTaskIndex(taskIndex);
      return this;
    }

    public Builder protocol(String protocol) {
      this.protocol = protocol == null ? "grpc" : protocol;
      return this;
    }

    public Builder deviceFilters(DeviceFilters filters) {
      this.deviceFilters = filters == null ? DeviceFilters.none() : filters;
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connect timeout");
      return this;
    }

    public Builder callTimeout(Duration timeout) {
      this.callTimeout = positive(timeout, "call timeout");
      return this;
    }

    public Builder tls(TlsConfig tls) {
      this.tls = tls;
      return this;
    }

    public Builder localFunction(String name, TaskFunction function) {
      localFunctions.put(name, function);
      return this;
    }

    public Builder localAccelerators(Map<String, Integer> byType) {
      localAccelerators.putAll(byType);
      return this;
    }

    public ConnectOptions build() {
      return new ConnectOptions(jobName, taskIndex, protocol, deviceFilters, connectTimeout, callTimeout, tls,
          localFunctions, localAccelerators, reuseChannels);
    }
  }
}
