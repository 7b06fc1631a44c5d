package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;
import io.clusterresolver.runtime.rpc.ValueHandle;
import io.grpc.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster contexts one task serves: one per connection, the latest of each caller bound to it
 * (a later connect invalidates the earlier one), and the reasons of the last
 * {@value #REMEMBERED_INVALIDATIONS} that ended, so a call on an old handle says why it failed.
 * Thread-safe.
 */
final class ClusterContexts {

  private static final int REMEMBERED_INVALIDATIONS = 4096;

  private final Map<String, ClusterContext> contexts = new ConcurrentHashMap<>();
  private final Map<String, String> contextByCaller = new ConcurrentHashMap<>();
  private final Map<String, String> endedContexts =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > REMEMBERED_INVALIDATIONS;
        }
      };

  /** Adds a new context; the one already there under its id, if any. */
  ClusterContext putIfAbsent(ClusterContext context) {
    return contexts.putIfAbsent(context.id, context);
  }

  /** A live context, or {@code null}. */
  ClusterContext get(String id) {
    return contexts.get(id);
  }

  /** Makes {@code id} the caller's current context; its previous one, or {@code null}. */
  String bind(String caller, String id) {
    return contextByCaller.put(caller, id);
  }

  /** Forgets that {@code id} is the caller's current context. */
  void unbind(String caller, String id) {
    contextByCaller.remove(caller, id);
  }

  /** How many contexts are live. */
  int size() {
    return contexts.size();
  }

  /** How many values are stored over all live contexts. */
  int valueCount() {
    return contexts.values().stream().mapToInt(c -> c.values.size()).sum();
  }

  /** Frees every context. */
  void clear() {
    contexts.clear();
    contextByCaller.clear();
  }

  /**
   * The live context {@code id} of {@code caller}.
   *
   * @throws StatusRuntimeException FAILED_PRECONDITION when it ended or never existed, PERMISSION_DENIED when it is another caller's
   */
  ClusterContext context(String id, Caller caller, String taskName) {
    ClusterContext context = contexts.get(id);
    if (context == null) {
      String ended;
      synchronized (endedContexts) {
        ended = endedContexts.get(id);
      }
      throw Status.FAILED_PRECONDITION
          .withDescription(
              ended != null
                  ? "cluster context " + id + " on " + taskName + " was " + ended
                  : "unknown cluster context " + id + " on " + taskName + " (connect first)")
          .asRuntimeException();
    }
    if (!context.caller.equals(caller)) {
      throw Status.PERMISSION_DENIED
          .withDescription("cluster context " + id + " belongs to " + context.caller + ", not " + caller)
          .asRuntimeException();
    }
    return context;
  }

  /** Ends a context, freeing its values and remembering why (for the next call that names it). */
  void end(ClusterContext context, String why) {
    if (contexts.remove(context.id) != null) {
      context.values.clear(); // free the values now, not when the last reference goes
      synchronized (endedContexts) {
        endedContexts.put(context.id, why);
      }
    }
  }

  /** Stores a value in a context and returns its handle. */
  ValueHandle store(ClusterContext context, String device, ByteString data) {
    long id = context.nextId.getAndIncrement();
    context.values.put(id, new StoredValue(device, data));
    if (!contexts.containsKey(context.id)) {
      context.values.clear(); // the context ended while we computed
    }
    return ValueHandle.newBuilder().setContextId(context.id).setDevice(device).setId(id).build();
  }
}
