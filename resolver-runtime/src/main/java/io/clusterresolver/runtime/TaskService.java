package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.rpc.CreateContextRequest;
import io.clusterresolver.runtime.rpc.CreateContextResponse;
import io.clusterresolver.runtime.rpc.DeleteResponse;
import io.clusterresolver.runtime.rpc.FetchRequest;
import io.clusterresolver.runtime.rpc.FetchResponse;
import io.clusterresolver.runtime.rpc.PutRequest;
import io.clusterresolver.runtime.rpc.ReleaseContextRequest;
import io.clusterresolver.runtime.rpc.ReleaseContextResponse;
import io.clusterresolver.runtime.rpc.RunRequest;
import io.clusterresolver.runtime.rpc.StatusRequest;
import io.clusterresolver.runtime.rpc.StatusResponse;
import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.clusterresolver.runtime.rpc.ValueHandle;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The gRPC service of one task: status, connect (a cluster context per connection, filtered by
 * {@link DeviceVisibility}), put, run a registered function, fetch, delete, release.
 */
final class TaskService extends TaskServiceGrpc.TaskServiceImplBase {

  private static final System.Logger LOG = System.getLogger(TaskService.class.getName());

  private final String job;
  private final int taskIndex;
  private final String taskName;
  private final List<String> devices;
  private final ClusterSpec cluster;
  private final ClusterContexts contexts;
  private final DeviceVisibility visibility;
  private final Map<String, TaskFunction> functions;

  TaskService(TaskServer server, ClusterContexts contexts, DeviceVisibility visibility,
      Map<String, TaskFunction> functions) {
    this.job = server.job();
    this.taskIndex = server.taskIndex();
    this.taskName = server.taskName();
    this.devices = server.devices();
    this.cluster = server.clusterSpec();
    this.contexts = contexts;
    this.visibility = visibility;
    this.functions = functions;
  }


  @Override
  public void getStatus(StatusRequest request, StreamObserver<StatusResponse> out) {
    out.onNext(
        StatusResponse.newBuilder()
            .setJob(job)
            .setTaskIndex(taskIndex)
            .addAllDevices(devices)
            .setCluster(ClusterDefs.toClusterDef(cluster))
            .setServing(true)
            .build());
    out.onCompleted();
  }

  @Override
  public void createContext(CreateContextRequest request, StreamObserver<CreateContextResponse> out) {
    respond(out, () -> {
      Caller caller = requireCaller();
      if (request.getCheckTask()
          && (!request.getExpectedJob().equals(job) || request.getExpectedTaskIndex() != taskIndex)) {
        throw Status.FAILED_PRECONDITION
            .withDescription(TaskServer.WRONG_TASK + " this server is " + taskName + ", but the cluster says "
                + DeviceName.taskName(request.getExpectedJob(), request.getExpectedTaskIndex())
                + " is here (check the cluster addresses)")
            .asRuntimeException();
      }
      DeviceFilters filters = DeviceFilters.fromProto(request.getDeviceFilters());
      for (String filter : allFilters(filters)) {
        try {
          DeviceName.parse(filter);
        } catch (IllegalArgumentException e) {
          throw Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
        }
      }
      ClusterContext context = new ClusterContext(request.getContextId(), caller, filters);
      ClusterContext existing = contexts.putIfAbsent(context);
      if (existing != null) {
        // A retried request (its first answer was lost): same context, same answer.
        if (!existing.caller.equals(caller)) {
          throw Status.ALREADY_EXISTS
              .withDescription("cluster context " + context.id + " already exists")
              .asRuntimeException();
        }
        context = existing;
      }
      String previous = contexts.bind(caller.name(), context.id);
      if (previous != null && !previous.equals(context.id)) {
        ClusterContext old = contexts.get(previous);
        if (old != null) {
          contexts.end(old, "invalidated by a later connect of " + caller);
          LOG.log(Level.DEBUG, "{0}: context {1} of {2} invalidated by a later connect",
              taskName, previous, caller);
        }
      }
      CreateContextResponse.Builder response = CreateContextResponse.newBuilder();
      for (String device : devices) {
        if (visibility.visibleTo(caller, context.filters, device)) {
          response.addVisibleDevices(device);
        }
      }
      return response.build();
    });
  }

  @Override
  public void releaseContext(ReleaseContextRequest request, StreamObserver<ReleaseContextResponse> out) {
    respond(out, () -> {
      Caller caller = requireCaller();
      ClusterContext context = contexts.get(request.getContextId());
      if (context != null && context.caller.equals(caller)) {
        contexts.end(context, request.getSuperseded()
            ? "invalidated by a later connect of " + caller
            : "released (its connection was closed)");
        contexts.unbind(caller.name(), context.id);
      }
      return ReleaseContextResponse.getDefaultInstance();
    });
  }

  @Override
  public void put(PutRequest request, StreamObserver<ValueHandle> out) {
    respond(out, () -> {
      ClusterContext context = contexts.context(request.getContextId(), requireCaller(), taskName);
      if (!visibility.visibleTo(context.caller, context.filters, request.getDevice())) {
        throw DeviceVisibility.unknownDevice(request.getDevice());
      }
      return contexts.store(context, request.getDevice(), request.getData());
    });
  }

  @Override
  public void run(RunRequest request, StreamObserver<ValueHandle> out) {
    respond(out, () -> {
      ClusterContext context = contexts.context(request.getContextId(), requireCaller(), taskName);
      String device = request.getDevice();
      if (!visibility.visibleTo(context.caller, context.filters, device)) {
        throw DeviceVisibility.unknownDevice(device);
      }
      TaskFunction function = functions.get(request.getFunction());
      if (function == null) {
        throw Status.NOT_FOUND
            .withDescription("unknown function '" + request.getFunction() + "' on " + taskName
                + " (registered: " + new TreeMap<>(functions).keySet() + ")")
            .asRuntimeException();
      }
      byte[] input;
      if (request.getInputCase() == RunRequest.InputCase.VALUE_ID) {
        StoredValue value = context.values.get(request.getValueId());
        if (value == null) {
          throw Status.NOT_FOUND
              .withDescription("unknown value " + request.getValueId() + " on " + taskName)
              .asRuntimeException();
        }
        input = value.data().toByteArray();
      } else {
        input = request.getData().toByteArray();
      }
      byte[] result;
      try {
        result = function.apply(input);
      } catch (Exception e) {
        throw Status.UNKNOWN
            .withDescription("function '" + request.getFunction() + "' failed on " + device + ": " + e)
            .asRuntimeException();
      }
      if (result == null) {
        throw Status.UNKNOWN
            .withDescription("function '" + request.getFunction() + "' returned null on " + device)
            .asRuntimeException();
      }
      return contexts.store(context, device, ByteString.copyFrom(result));
    });
  }

  @Override
  public void delete(ValueHandle handle, StreamObserver<DeleteResponse> out) {
    respond(out, () -> {
      ClusterContext context = contexts.context(handle.getContextId(), requireCaller(), taskName);
      return DeleteResponse.newBuilder()
          .setDeleted(context.values.remove(handle.getId()) != null).build();
    });
  }

  @Override
  public void fetch(FetchRequest request, StreamObserver<FetchResponse> out) {
    respond(out, () -> {
      ValueHandle handle = request.getHandle();
      ClusterContext context = contexts.context(handle.getContextId(), requireCaller(), taskName);
      StoredValue value = context.values.get(handle.getId());
      if (value == null) {
        throw Status.NOT_FOUND
            .withDescription("unknown value " + handle.getId() + " on " + taskName)
            .asRuntimeException();
      }
      if (!visibility.visibleTo(context.caller, context.filters, value.device())) {
        throw DeviceVisibility.unknownDevice(value.device());
      }
      return FetchResponse.newBuilder().setData(value.data()).build();
    });
  }

  private static List<String> allFilters(DeviceFilters filters) {
    List<String> all = new ArrayList<>();
    filters.toProto().getJobsList().forEach(
        j -> j.getTasksMap().values().forEach(t -> all.addAll(t.getDeviceFiltersList())));
    return all;
  }

  private interface Call<T> {
    T get();
  }

  private static <T> void respond(StreamObserver<T> out, Call<T> call) {
    T response;
    try {
      response = call.get();
    } catch (StatusRuntimeException e) {
      out.onError(e);
      return;
    } catch (RuntimeException e) {
      out.onError(Status.INTERNAL.withDescription(e.toString()).asRuntimeException());
      return;
    }
    out.onNext(response);
    out.onCompleted();
  }

  private Caller requireCaller() {
    Caller caller = Caller.KEY.get();
    if (caller == null) {
      throw Status.UNAUTHENTICATED
          .withDescription("the call does not name its task (header " + Caller.HEADER.name() + ")")
          .asRuntimeException();
    }
    return caller;
  }
}
