package io.clusterresolver.tensorflow;

import static org.tensorflow.internal.c_api.global.tensorflow.TF_DeleteStatus;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_GetCode;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_Message;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_NewStatus;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_OK;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tensorflow.EagerSession;
import org.tensorflow.internal.c_api.TFE_Context;
import org.tensorflow.internal.c_api.TF_Status;
import org.tensorflow.proto.error.Code;

/** The few places where this module talks to TensorFlow's C API, and their error handling. */
final class Natives {

  /**
   * {@code EagerSession.nativeHandle()}: package-private in TensorFlow Java 1.1.0, with no public
   * equivalent. A method (not the field behind it) is the least fragile thing to reach; it is looked
   * up once, and a TensorFlow Java without it fails with a message saying so.
   */
  private static final MethodHandle CONTEXT_OF_SESSION = contextOfSession();

  private Natives() {}

  private static MethodHandle contextOfSession() {
    try {
      var method = EagerSession.class.getDeclaredMethod("nativeHandle");
      method.setAccessible(true);
      return MethodHandles.lookup().unreflect(method)
          .asType(MethodType.methodType(TFE_Context.class, EagerSession.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The eager context behind a session. */
  static TFE_Context context(EagerSession session) {
    if (CONTEXT_OF_SESSION == null) {
      throw new IllegalStateException(
          "This TensorFlow Java has no EagerSession.nativeHandle() this module can reach (tested:"
              + " org.tensorflow:tensorflow-core-api 1.1.0). On the module path, add"
              + " --add-opens org.tensorflow/org.tensorflow=ALL-UNNAMED (or this module's name).");
    }
    try {
      TFE_Context context = (TFE_Context) CONTEXT_OF_SESSION.invokeExact(session);
      if (context == null || context.isNull()) {
        throw new IllegalStateException("The EagerSession is closed");
      }
      return context;
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot reach the EagerSession's context", e);
    }
  }

  /** A failed TensorFlow call: its status code and message. */
  record Failure(Code code, String message) {
    @Override
    public String toString() {
      return code + ": " + message;
    }
  }

  /** Runs {@code call} with a fresh status; the failure, if any, is thrown by {@code onFailure}. */
  static void call(Consumer<TF_Status> call, Function<Failure, RuntimeException> onFailure) {
    TF_Status status = TF_NewStatus();
    try {
      call.accept(status);
      int code = TF_GetCode(status);
      if (code != TF_OK) {
        Code known = Code.forNumber(code);
        throw onFailure.apply(new Failure(
            known == null ? Code.UNKNOWN : known, TF_Message(status).getString()));
      }
    } finally {
      TF_DeleteStatus(status);
    }
  }
}
