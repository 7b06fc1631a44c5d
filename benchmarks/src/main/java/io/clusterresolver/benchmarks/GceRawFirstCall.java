package io.clusterresolver.benchmarks;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.InstanceAggregatedList;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import io.clusterresolver.testkit.GceDemoSimulation;

/**
 * The baseline of the cold {@code resolve --provider gce --simulate}: in a fresh JVM, start the same
 * demo simulation and make the raw {@code google-cloud-compute} client's first call (one
 * {@code instances.aggregatedList} page with the same filter), print the instance names, exit.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.GceRawFirstCall
 * </pre>
 */
public final class GceRawFirstCall {

  private GceRawFirstCall() {}

  public static void main(String[] args) throws Exception {
    try (GceDemoSimulation simulation = GceDemoSimulation.start();
        InstancesClient client = InstancesClient.create(InstancesSettings.newBuilder()
            .setEndpoint(simulation.gce().endpoint().toString())
            .setCredentialsProvider(NoCredentialsProvider.create()).build())) {
      InstanceAggregatedList page = client.aggregatedListCallable().call(AggregatedListInstancesRequest.newBuilder()
          .setProject(simulation.gce().project()).setMaxResults(500).setReturnPartialSuccess(true)
          .setFilter("(labels.cluster = \"demo\") AND (status = \"RUNNING\")").build());
      page.getItemsMap().values().forEach(scope -> scope.getInstancesList()
          .forEach(i -> System.out.println(i.getName() + " " + i.getNetworkInterfaces(0).getNetworkIP())));
    }
  }
}
