package io.clusterresolver.gce;

import com.google.api.gax.httpjson.ApiMethodDescriptor;
import com.google.api.gax.rpc.RequestParamsBuilder;
import com.google.api.gax.rpc.UnaryCallable;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.InstanceAggregatedList;
import com.google.cloud.compute.v1.InstanceList;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.compute.v1.ListInstancesRequest;
import com.google.cloud.compute.v1.stub.InstancesStubSettings;
import com.google.protobuf.TypeRegistry;
import io.clusterresolver.google.GoogleCalls;
import java.io.IOException;
import java.util.Map;

/**
 * Compute Engine's two instance listings, {@code instances.aggregatedList} and {@code instances.list},
 * through {@link GoogleCalls} instead of the SDK's {@code InstancesClient}, whose stub builds the
 * formatters of all Instances methods (243 classes) and an operations client when it is created.
 * The requests are google-cloud-compute's {@code HttpJsonInstancesStub}'s: same paths, query
 * parameters and routing header.
 */
final class InstancesListing implements AutoCloseable {

  /** No answer of a listing holds an {@code Any}. */
  private static final TypeRegistry TYPES = TypeRegistry.newBuilder().build();

  private static final ApiMethodDescriptor<AggregatedListInstancesRequest, InstanceAggregatedList> AGGREGATED_LIST =
      GoogleCalls.get("google.cloud.compute.v1.Instances/AggregatedList",
          "/compute/v1/projects/{project}/aggregated/instances", r -> GoogleCalls.pathParams(r, "project"),
          r -> GoogleCalls.queryParams(r, "filter", "include_all_scopes", "max_results", "order_by", "page_token",
              "return_partial_success", "service_project_number"),
          InstanceAggregatedList.getDefaultInstance(), TYPES);

  private static final ApiMethodDescriptor<ListInstancesRequest, InstanceList> LIST =
      GoogleCalls.get("google.cloud.compute.v1.Instances/List", "/compute/v1/projects/{project}/zones/{zone}/instances",
          r -> GoogleCalls.pathParams(r, "project", "zone"),
          r -> GoogleCalls.queryParams(r, "filter", "max_results", "order_by", "page_token", "return_partial_success"),
          InstanceList.getDefaultInstance(), TYPES);

  private final GoogleCalls calls;
  private final UnaryCallable<AggregatedListInstancesRequest, InstanceAggregatedList> aggregatedList;
  private final UnaryCallable<ListInstancesRequest, InstanceList> list;

  /** Connects as {@code settings} say (credentials, transport, endpoint, each call's one attempt). */
  InstancesListing(InstancesSettings settings) throws IOException {
    InstancesStubSettings stub = (InstancesStubSettings) settings.getStubSettings();
    this.calls = new GoogleCalls(stub);
    this.aggregatedList = calls.unary(AGGREGATED_LIST, stub.aggregatedListSettings(), TYPES, r -> routing(r.getProject()));
    this.list = calls.unary(LIST, stub.listSettings(), TYPES, r -> routing(r.getProject()));
  }

  UnaryCallable<AggregatedListInstancesRequest, InstanceAggregatedList> aggregatedListCallable() {
    return aggregatedList;
  }

  UnaryCallable<ListInstancesRequest, InstanceList> listCallable() {
    return list;
  }

  private static Map<String, String> routing(String project) {
    RequestParamsBuilder params = RequestParamsBuilder.create();
    params.add("project", String.valueOf(project));
    return params.build();
  }

  @Override
  public void close() throws Exception {
    calls.close();
  }
}
