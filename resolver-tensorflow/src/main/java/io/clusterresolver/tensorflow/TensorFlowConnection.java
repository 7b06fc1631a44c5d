package io.clusterresolver.tensorflow;

import static org.tensorflow.internal.c_api.global.tensorflow.TFE_ContextListDevices;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_DeleteDeviceList;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_DeviceListCount;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_DeviceListName;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ServerDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.tensorflow.EagerSession;
import org.tensorflow.internal.c_api.TFE_Context;
import org.tensorflow.internal.c_api.TF_DeviceList;

/**
 * An {@link EagerSession} connected to a cluster by {@link TensorFlowCluster#connect}: the devices
 * TensorFlow sees, and ops run on them ({@link #op(String)}). The session stays the caller's; this
 * is a view of what the connection set up, valid until the session connects again.
 */
public final class TensorFlowConnection {
  private final EagerSession session;
  private final ClusterSpec cluster;
  private final ServerDef serverDef;
  private final String defaultDevice;

  TensorFlowConnection(
      EagerSession session, ClusterSpec cluster, ServerDef serverDef, String defaultDevice) {
    this.session = session;
    this.cluster = cluster;
    this.serverDef = serverDef;
    this.defaultDevice = defaultDevice;
  }

  /** The session this connection configured. */
  public EagerSession session() {
    return session;
  }

  /**
   * The cluster the session is connected to, with the connecting job when it was added; empty
   * when the resolver's master was local (nothing remote).
   */
  public ClusterSpec clusterSpec() {
    return cluster;
  }

  /** The {@code ServerDef} given to TensorFlow; absent when nothing remote was connected. */
  public Optional<ServerDef> serverDef() {
    return Optional.ofNullable(serverDef);
  }

  /**
   * Where ops without a device run: the master task's CPU when {@code make_master_device_default}
   * found one ({@code /job:worker/replica:0/task:0/device:CPU:0}), else empty (TensorFlow places them).
   */
  public Optional<String> defaultDevice() {
    return Optional.ofNullable(defaultDevice);
  }

  /** Every device TensorFlow's eager context lists now, local and remote, full names. */
  public List<String> devices() {
    List<String> names = new ArrayList<>();
    AtomicReference<TF_DeviceList> list = new AtomicReference<>();
    Function<Natives.Failure, RuntimeException> onFailure =
        failure -> new TensorFlowTaskException("/job:" + serverDef().map(ServerDef::getJobName)
            .orElse("localhost"), null, "TensorFlow could not list the devices: " + failure, null);
    Natives.call(status -> list.set(TFE_ContextListDevices(context(), status)), onFailure);
    try {
      for (int i = 0; i < TF_DeviceListCount(list.get()); i++) {
        int index = i;
        Natives.call(status -> names.add(TF_DeviceListName(list.get(), index, status).getString()),
            onFailure);
      }
    } finally {
      TF_DeleteDeviceList(list.get());
    }
    return List.copyOf(names);
  }

  /** A new op of this type ({@code "MatMul"}, {@code "AddV2"}), on the default device unless told. */
  public EagerOp op(String type) {
    if (type == null || type.isEmpty()) {
      throw new IllegalArgumentException("The op type must not be null or empty");
    }
    return new EagerOp(this, type, defaultDevice);
  }

  TFE_Context context() {
    return Natives.context(session);
  }

  /** How a failed op reads: the op, its device, and the task there with its address. */
  Function<Natives.Failure, RuntimeException> failureOf(String opType, String device) {
    return failure -> {
      Optional<TaskName> task = TaskName.ofDevice(device);
      String address = task.filter(t -> cluster.hasJob(t.job())
              && cluster.taskIndices(t.job()).contains(t.index()))
          .map(t -> cluster.taskAddress(t.job(), t.index()))
          .orElse(null);
      String where = task.map(t -> " on " + device + " (task " + t
          + (address == null ? ", not in the connected cluster" : " at " + address) + ")")
          .orElse(device == null ? "" : " on " + device);
      return new TensorFlowTaskException(task.map(TaskName::toString).orElse(null), address,
          "TensorFlow op " + opType + where + " failed: " + failure, null);
    };
  }

  @Override
  public String toString() {
    return "TensorFlowConnection{cluster=" + cluster.asMap() + ", defaultDevice=" + defaultDevice
        + "}";
  }
}
