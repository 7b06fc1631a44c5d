package com.example.tensorflow;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.Resolution;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.tensorflow.ConnectOptions;
import io.clusterresolver.tensorflow.TensorFlowCluster;
import io.clusterresolver.tensorflow.TensorFlowConnection;
import io.clusterresolver.tensorflow.TensorHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.tensorflow.EagerSession;
import org.tensorflow.proto.DataType;

/**
 * One process of a job whose other tasks are TensorFlow servers: connects this process's eager
 * session to them as its own task, then runs a matmul on each other worker and prints where.
 */
public final class MatmulOnEachWorker {
  public static void main(String[] args) {
    ClusterResolver resolver = ClusterResolvers.create("slurm", Map.of());
    Resolution me = resolver.resolve();
    String job = me.taskType().orElseThrow();
    int index = me.taskId().orElseThrow();
    ConnectOptions asMyself = ConnectOptions.defaults().withTask(job, index);
    System.out.println("cluster: " + me.clusterSpec().asMap() + ", me: /job:" + job + "/task:" + index);

    // Parameter-server style isolation: every other worker sees only this task's devices (and its own).
    DeviceFilters.Builder filters = DeviceFilters.builder();
    for (int task : me.clusterSpec().taskIndices(job)) {
      if (task != index) {
        filters.setDeviceFilters(job, task, List.of("/job:" + job + "/task:" + index));
      }
    }
    // TensorFlow takes filters when a context first connects (an update ignores changed filters), so
    // the comparison without filters is a second session, connecting as /job:localhost.
    try (EagerSession session = EagerSession.create();
        EagerSession unfiltered = EagerSession.create()) {
      TensorFlowConnection filtered = TensorFlowCluster.connect(
          session, resolver, asMyself.withDeviceFilters(filters.build()));
      System.out.println("devices with filters:    " + filtered.devices());
      System.out.println("devices without filters: "
          + TensorFlowCluster.connect(unfiltered, me.clusterSpec()).devices());
      System.out.println("default device: " + filtered.defaultDevice().orElse("none"));

      for (int task : me.clusterSpec().taskIndices(job)) {
        if (task == index) {
          continue;
        }
        String device = "/job:" + job + "/replica:0/task:" + task + "/device:CPU:0";
        try (TensorHandle a = TensorHandle.of(new float[] {1, 2, 3, 4}, 2, 2);
            TensorHandle b = TensorHandle.of(new float[] {5, 6, 7, 8 + task}, 2, 2);
            TensorHandle product = filtered.op("MatMul").device(device)
                .input(a).input(b).attr("T", DataType.DT_FLOAT).execute()) {
          System.out.println("matmul on " + product.device() + ": "
              + Arrays.toString(product.floats()));
        }
      }
    }
  }
}
