package io.clusterresolver.runtime;

import io.clusterresolver.proto.DeviceFilters;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * How {@link Cluster#connect} connects: the local task (TensorFlow's {@code job_name} and {@code
 * task_index}, default {@code localhost} / 0), the protocol ({@code grpc}), device filters,
 * timeouts and transport security. Immutable; build with {@link #builder()}.
 */
public final class ConnectOptions {
  /** TensorFlow's default local job name. */
  public static final String DEFAULT_JOB_NAME = "localhost";

  private final String jobName;
  private final int taskIndex;
  private final String protocol;
  private final DeviceFilters deviceFilters;
  private final Duration connectTimeout;
  private final Duration callTimeout;
  private final TlsConfig tls;
  private final Map<String, TaskFunction> localFunctions;
  private final Map<String, Integer> localAccelerators;
  private final boolean reuseChannels;

  private ConnectOptions(Builder b) {
    this.reuseChannels = b.reuseChannels;
    this.jobName = b.jobName;
    this.taskIndex = b.taskIndex;
    this.protocol = b.protocol;
    this.deviceFilters = b.deviceFilters;
    this.connectTimeout = b.connectTimeout;
    this.callTimeout = b.callTimeout;
    this.tls = b.tls;
    this.localFunctions = Map.copyOf(b.localFunctions);
    this.localAccelerators = Map.copyOf(b.localAccelerators);
  }

  /** The defaults: job {@code localhost}, task 0, {@code grpc}, no filters, 30 s / 2 s timeouts. */
  public static ConnectOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The local task's job. */
  public String jobName() {
    return jobName;
  }

  /** The local task's index. */
  public int taskIndex() {
    return taskIndex;
  }

  /** The protocol; only {@code grpc} is supported. */
  public String protocol() {
    return protocol;
  }

  /** The device filters sent to every task. */
  public DeviceFilters deviceFilters() {
    return deviceFilters;
  }

  /** How long to keep trying to reach every task (tasks start at different times). */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The deadline of each call. */
  public Duration callTimeout() {
    return callTimeout;
  }

  /** TLS for the connections to the tasks (and the local task's server); {@code null} = plaintext. */
  public TlsConfig tls() {
    return tls;
  }

  /** Functions served by the local task's server when {@code connect} starts one. */
  public Map<String, TaskFunction> localFunctions() {
    return localFunctions;
  }

  /** Accelerators of the local task's server when {@code connect} starts one. */
  public Map<String, Integer> localAccelerators() {
    return localAccelerators;
  }

  /**
   * Whether connections share this process's open channels to the same addresses (default true):
   * connecting again then reuses the HTTP/2 connections. False opens fresh ones, closed with the
   * connection.
   */
  public boolean reuseChannels() {
    return reuseChannels;
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
      if (jobName == null || jobName.isEmpty()) {
        throw new IllegalArgumentException("The local job name must not be empty");
      }
      this.jobName = jobName;
      return this;
    }

    public Builder taskIndex(int taskIndex) {
      if (taskIndex < 0) {
        throw new IllegalArgumentException("The local task index must be >= 0, not " + taskIndex);
      }
      this.taskIndex = taskIndex;
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

    private static Duration positive(Duration d, String what) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException("The " + what + " must be positive, not " + d);
      }
      return d;
    }

    public ConnectOptions build() {
      return new ConnectOptions(this);
    }
  }
}
