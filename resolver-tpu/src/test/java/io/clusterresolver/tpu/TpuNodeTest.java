package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.tpu.v2.Node;
import com.google.gson.stream.JsonReader;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streamed reading of a {@code nodes.get} answer against google-cloud-tpu's own: its {@code Node.State}
 * and {@code Node.Health} numbers, and the same answers read by protobuf's {@code JsonFormat} into its
 * {@code Node} (as the SDK's client read them).
 */
class TpuNodeTest {

  @Test
  void theEnumsHaveTheSdksNamesAndNumbers() {
    for (Node.State sdk : Node.State.values()) {
      if (sdk != Node.State.UNRECOGNIZED) {
        assertThat(TpuNode.State.valueOf(sdk.name()).number).as(sdk.name()).isEqualTo(sdk.getNumber());
        assertThat(TpuNode.State.of(sdk.getNumber())).isEqualTo(TpuNode.State.valueOf(sdk.name()));
      }
    }
    for (Node.Health sdk : Node.Health.values()) {
      if (sdk != Node.Health.UNRECOGNIZED) {
        assertThat(TpuNode.Health.valueOf(sdk.name()).number).as(sdk.name()).isEqualTo(sdk.getNumber());
      }
    }
    assertThat(TpuNode.State.values()).hasSize(Node.State.values().length);
    assertThat(TpuNode.Health.values()).hasSize(Node.Health.values().length);
  }

  @Test
  void answersReadAsTheSdkReadsThem() throws Exception {
    for (String body : List.of(
        "{\"name\":\"projects/p/locations/us-central2-b/nodes/pod\",\"acceleratorType\":\"v4-32\",\"state\":2,"
            + "\"health\":1,\"networkEndpoints\":[{\"ipAddress\":\"10.0.0.2\",\"port\":8470,"
            + "\"accessConfig\":{\"externalIp\":\"34.0.0.1\"}},{\"ipAddress\":\"10.0.0.3\",\"port\":\"8471\"}],"
            + "\"schedulingConfig\":{\"preemptible\":true},\"labels\":{\"a\":\"b\"},\"newField\":[{}]}",
        "{\"name\":\"n\",\"state\":\"STOPPED\",\"health\":\"UNHEALTHY_MAINTENANCE\",\"healthDescription\":\"x\"}",
        "{\"name\":\"n\",\"state\":99,\"health\":77,\"networkEndpoints\":null,\"acceleratorType\":null}",
        "{}")) {
      TpuNode node = TpuNode.read(new JsonReader(new StringReader(body)));
      Node.Builder sdk = Node.newBuilder();
      JsonFormat.parser().ignoringUnknownFields().merge(body, sdk);
      assertThat(node.name()).isEqualTo(sdk.getName());
      assertThat(node.state().name()).as(body).isEqualTo(sdk.getState().name());
      assertThat(node.health().name()).as(body).isEqualTo(sdk.getHealth().name());
      assertThat(node.healthDescription()).isEqualTo(sdk.getHealthDescription());
      assertThat(node.acceleratorType()).isEqualTo(sdk.getAcceleratorType());
      assertThat(node.networkEndpoints()).containsExactlyElementsOf(sdk.getNetworkEndpointsList().stream()
          .map(e -> new TpuNode.Endpoint(e.getIpAddress(), e.getPort())).toList());
    }
  }

  @Test
  void aValueOfTheWrongShapeIsAnErrorBothWays() {
    for (String body : List.of("[]", "{\"networkEndpoints\":{}}", "{\"networkEndpoints\":[{\"port\":\"http\"}]}",
        "{\"name\":{\"x\":1}}")) {
      assertThatThrownBy(() -> JsonFormat.parser().ignoringUnknownFields().merge(body, Node.newBuilder())).as(body)
          .isInstanceOf(InvalidProtocolBufferException.class);
      assertThatThrownBy(() -> TpuNode.read(new JsonReader(new StringReader(body)))).as(body)
          .isInstanceOfAny(IOException.class, IllegalStateException.class, NumberFormatException.class);
    }
    assertThatThrownBy(() -> TpuNode.read(new JsonReader(new StringReader("{\"state\":{}}"))))
        .isInstanceOf(IOException.class).hasMessageContaining("enum");
    assertThat(Arrays.stream(TpuNode.State.values()).filter(s -> s.number < 0))
        .containsExactly(TpuNode.State.UNRECOGNIZED);
  }
}
