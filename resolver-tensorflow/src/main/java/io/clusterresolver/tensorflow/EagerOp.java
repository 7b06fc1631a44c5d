package io.clusterresolver.tensorflow;

import static org.tensorflow.internal.c_api.global.tensorflow.TFE_DeleteOp;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_Execute;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_NewOp;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_OpAddInput;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_OpSetAttrBool;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_OpSetAttrInt;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_OpSetAttrType;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_OpSetDevice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.PointerPointer;
import org.tensorflow.internal.c_api.TFE_Op;
import org.tensorflow.internal.c_api.TFE_TensorHandle;
import org.tensorflow.proto.DataType;

/**
 * One TensorFlow op run eagerly on a device of the connected cluster, through the C API's {@code
 * TFE_Execute} with the op's exact number of outputs. This is the way to run ops on remote tasks
 * with TensorFlow Java 1.1.0, whose {@code Ops} builder fails for remote devices (see the module's
 * README).
 *
 * <pre>{@code
 * try (TensorHandle sum = connection.op("AddV2")
 *     .device("/job:worker/replica:0/task:1/device:CPU:0")
 *     .input(a).input(b).attr("T", DataType.DT_FLOAT)
 *     .execute()) {
 *   float value = sum.floats()[0];
 * }
 * }</pre>
 *
 * Not thread-safe; one builder per op.
 */
public final class EagerOp {
  private final TensorFlowConnection connection;
  private final String type;
  private String device;
  private final List<TensorHandle> inputs = new ArrayList<>();
  private final Map<String, Object> attrs = new LinkedHashMap<>();

  EagerOp(TensorFlowConnection connection, String type, String defaultDevice) {
    this.connection = connection;
    this.type = type;
    this.device = defaultDevice;
  }

  /**
   * The device to run on, full ({@code /job:worker/replica:0/task:1/device:CPU:0}) or partial
   * ({@code /job:worker/task:1}); {@code null} lets TensorFlow place it. Without this call the op
   * runs on the connection's {@linkplain TensorFlowConnection#defaultDevice() default device}.
   */
  public EagerOp device(String name) {
    this.device = name;
    return this;
  }

  /** Adds the next input. */
  public EagerOp input(TensorHandle input) {
    inputs.add(input);
    return this;
  }

  /** Sets a type attribute, such as {@code T}. */
  public EagerOp attr(String name, DataType value) {
    attrs.put(name, value);
    return this;
  }

  /** Sets a boolean attribute, such as MatMul's {@code transpose_a}. */
  public EagerOp attr(String name, boolean value) {
    attrs.put(name, value);
    return this;
  }

  /** Sets an integer attribute. */
  public EagerOp attr(String name, long value) {
    attrs.put(name, value);
    return this;
  }

  /**
   * Runs an op that has exactly one output.
   *
   * @throws TensorFlowTaskException when TensorFlow fails the op; the message names the task the op
   *     was placed on and its address (a task that died, a device a filter hides, a wrong input)
   */
  public TensorHandle execute() {
    return execute(1).get(0);
  }

  /**
   * Runs the op and returns its {@code numOutputs} outputs (the op's exact output count: TensorFlow
   * fails a remote op asked for another).
   *
   * @throws TensorFlowTaskException when TensorFlow fails the op
   */
  public List<TensorHandle> execute(int numOutputs) {
    if (numOutputs < 1) {
      throw new IllegalArgumentException("An op has at least one output, not " + numOutputs);
    }
    Function<Natives.Failure, RuntimeException> onFailure = connection.failureOf(type, device);
    AtomicReference<TFE_Op> op = new AtomicReference<>();
    Natives.call(status -> op.set(TFE_NewOp(connection.context(), type, status)), onFailure);
    try (PointerPointer<TFE_TensorHandle> outputs = new PointerPointer<>(numOutputs);
        IntPointer count = new IntPointer(1)) {
      Natives.call(status -> {
        if (device != null) {
          TFE_OpSetDevice(op.get(), device, status);
        }
      }, onFailure);
      for (TensorHandle input : inputs) {
        Natives.call(status -> TFE_OpAddInput(op.get(), input.nativeHandle(), status), onFailure);
      }
      attrs.forEach((name, value) -> {
        if (value instanceof DataType t) {
          TFE_OpSetAttrType(op.get(), name, t.getNumber());
        } else if (value instanceof Boolean b) {
          TFE_OpSetAttrBool(op.get(), name, (byte) (b ? 1 : 0));
        } else {
          TFE_OpSetAttrInt(op.get(), name, (Long) value);
        }
      });
      count.put(numOutputs);
      Natives.call(status -> TFE_Execute(op.get(), outputs, count, status), onFailure);
      List<TensorHandle> results = new ArrayList<>(count.get());
      for (int i = 0; i < count.get(); i++) {
        results.add(new TensorHandle(outputs.get(TFE_TensorHandle.class, i), onFailure));
      }
      return results;
    } finally {
      if (op.get() != null) {
        TFE_DeleteOp(op.get());
      }
    }
  }
}
