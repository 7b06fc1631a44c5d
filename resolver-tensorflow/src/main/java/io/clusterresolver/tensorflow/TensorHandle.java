package io.clusterresolver.tensorflow;

import static org.tensorflow.internal.c_api.global.tensorflow.TFE_DeleteTensorHandle;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_NewTensorHandle;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_TensorHandleDataType;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_TensorHandleDeviceName;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_TensorHandleDim;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_TensorHandleNumDims;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_TensorHandleResolve;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_AllocateTensor;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_DeleteTensor;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_TensorByteSize;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_TensorData;

import java.lang.ref.Cleaner;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.tensorflow.internal.c_api.TFE_TensorHandle;
import org.tensorflow.internal.c_api.TF_Tensor;
import org.tensorflow.proto.DataType;

/**
 * An eager tensor: a value on one device, local or on a remote task, as TensorFlow's C API holds
 * it ({@code TFE_TensorHandle}). Ops run by {@link EagerOp} take and return these; reading the
 * value ({@link #floats()}, {@link #ints()}) copies it to this process.
 *
 * <p>Close a handle when done (a forgotten one is freed when it becomes unreachable). After the
 * session connects to another cluster, handles to values on the old remote devices are invalid,
 * as in TensorFlow.
 */
public final class TensorHandle implements AutoCloseable {
  private static final Cleaner CLEANER = Cleaner.create();

  private final AtomicReference<TFE_TensorHandle> handle;
  private final Cleaner.Cleanable cleanable;
  private final Function<Natives.Failure, RuntimeException> onFailure;

  TensorHandle(TFE_TensorHandle handle, Function<Natives.Failure, RuntimeException> onFailure) {
    this.handle = new AtomicReference<>(handle);
    this.onFailure = onFailure;
    AtomicReference<TFE_TensorHandle> owned = this.handle;
    this.cleanable = CLEANER.register(this, () -> release(owned));
  }

  private static void release(AtomicReference<TFE_TensorHandle> owned) {
    TFE_TensorHandle h = owned.getAndSet(null);
    if (h != null) {
      TFE_DeleteTensorHandle(h);
    }
  }

  /** A float32 tensor in this process's memory, of the given shape (none for a scalar). */
  public static TensorHandle of(float[] values, long... shape) {
    long count = Arrays.stream(shape).reduce(1, Math::multiplyExact);
    if (count != values.length) {
      throw new IllegalArgumentException("Shape " + Arrays.toString(shape) + " holds " + count
          + " values, not " + values.length);
    }
    TF_Tensor tensor = TF_AllocateTensor(DataType.DT_FLOAT_VALUE, shape, shape.length,
        4L * values.length);
    try {
      new FloatPointer(TF_TensorData(tensor)).capacity(values.length).put(values);
      AtomicReference<TFE_TensorHandle> created = new AtomicReference<>();
      Function<Natives.Failure, RuntimeException> local =
          failure -> new IllegalStateException("TensorFlow cannot hold a local tensor: " + failure);
      Natives.call(status -> created.set(TFE_NewTensorHandle(tensor, status)), local);
      return new TensorHandle(created.get(), local);
    } finally {
      TF_DeleteTensor(tensor); // the handle keeps its own reference to the buffer
    }
  }

  /** A float32 scalar in this process's memory. */
  public static TensorHandle scalar(float value) {
    return of(new float[] {value});
  }

  TFE_TensorHandle nativeHandle() {
    TFE_TensorHandle h = handle.get();
    if (h == null) {
      throw new IllegalStateException("The tensor handle is closed");
    }
    return h;
  }

  /** The full name of the device holding the value, e.g. {@code /job:worker/replica:0/task:1/device:CPU:0}. */
  public String device() {
    AtomicReference<String> name = new AtomicReference<>();
    Natives.call(status -> {
      BytePointer p = TFE_TensorHandleDeviceName(nativeHandle(), status);
      name.set(p == null || p.isNull() ? null : p.getString());
    }, onFailure);
    return name.get();
  }

  /** The value's type. */
  public DataType dataType() {
    DataType type = DataType.forNumber(TFE_TensorHandleDataType(nativeHandle()));
    return type == null ? DataType.UNRECOGNIZED : type;
  }

  /** The value's shape (empty for a scalar). */
  public long[] shape() {
    long[][] dims = new long[1][];
    Natives.call(status -> {
      int rank = TFE_TensorHandleNumDims(nativeHandle(), status);
      long[] d = new long[Math.max(rank, 0)];
      for (int i = 0; i < d.length; i++) {
        d[i] = TFE_TensorHandleDim(nativeHandle(), i, status);
      }
      dims[0] = d;
    }, onFailure);
    return dims[0];
  }

  /** The values of a float32 tensor, in row-major order, copied to this process. */
  public float[] floats() {
    requireType(DataType.DT_FLOAT);
    return resolve(tensor -> {
      float[] values = new float[(int) (TF_TensorByteSize(tensor) / 4)];
      new FloatPointer(TF_TensorData(tensor)).capacity(values.length).get(values);
      return values;
    });
  }

  /** The values of an int32 tensor, in row-major order, copied to this process. */
  public int[] ints() {
    requireType(DataType.DT_INT32);
    return resolve(tensor -> {
      int[] values = new int[(int) (TF_TensorByteSize(tensor) / 4)];
      new IntPointer(TF_TensorData(tensor)).capacity(values.length).get(values);
      return values;
    });
  }

  private void requireType(DataType expected) {
    DataType actual = dataType();
    if (actual != expected) {
      throw new IllegalStateException("The tensor is " + actual + ", not " + expected);
    }
  }

  // Copies the value here (for a remote value, one round trip to its task) and reads it.
  private <T> T resolve(Function<TF_Tensor, T> read) {
    AtomicReference<TF_Tensor> tensor = new AtomicReference<>();
    Natives.call(status -> tensor.set(TFE_TensorHandleResolve(nativeHandle(), status)), onFailure);
    try {
      return read.apply(tensor.get());
    } finally {
      TF_DeleteTensor(tensor.get());
    }
  }

  /** Frees the handle (and, when it is the last reference, the value on its device). */
  @Override
  public void close() {
    cleanable.clean();
  }

  @Override
  public String toString() {
    TFE_TensorHandle h = handle.get();
    return h == null ? "TensorHandle{closed}"
        : "TensorHandle{" + dataType() + Arrays.toString(shape()) + " on " + device() + "}";
  }
}
