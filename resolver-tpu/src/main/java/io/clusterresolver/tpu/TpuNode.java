package io.clusterresolver.tpu;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The fields of a Cloud TPU API v2 {@code Node} that a resolve reads, by their REST names; the rest of the
 * node is skipped as it streams by. Enums come as numbers (the request asks for {@code enum-encoding=int})
 * or names.
 *
 * @param name the node's full resource name ({@code ""} when the answer has none)
 * @param networkEndpoints the workers' endpoints, in worker order
 */
record TpuNode(String name, State state, Health health, String healthDescription, String acceleratorType,
    List<Endpoint> networkEndpoints) {

  TpuNode {
    networkEndpoints = List.copyOf(networkEndpoints);
  }

  /** A worker's endpoint: its internal IP and port (0 when the API gives none). */
  record Endpoint(String ipAddress, int port) {}

  /** {@code Node.State}, with the API's enum numbers; {@link #UNRECOGNIZED} for a value this version does not know. */
  enum State {
    STATE_UNSPECIFIED(0), CREATING(1), READY(2), RESTARTING(3), REIMAGING(4), DELETING(5), REPAIRING(6),
    STOPPED(8), STOPPING(9), STARTING(10), PREEMPTED(11), TERMINATED(12), HIDING(13), HIDDEN(14), UNHIDING(15),
    UNKNOWN(16), UNRECOGNIZED(-1);

    final int number;

    State(int number) {
      this.number = number;
    }

    static State of(int number) {
      return byNumber(values(), s -> s.number, number, UNRECOGNIZED);
    }
  }

  /** {@code Node.Health}, with the API's enum numbers; {@link #UNRECOGNIZED} for a value this version does not know. */
  enum Health {
    HEALTH_UNSPECIFIED(0), HEALTHY(1), TIMEOUT(3), UNHEALTHY_TENSORFLOW(4), UNHEALTHY_MAINTENANCE(5), UNRECOGNIZED(-1);

    final int number;

    Health(int number) {
      this.number = number;
    }

    static Health of(int number) {
      return byNumber(values(), h -> h.number, number, UNRECOGNIZED);
    }
  }

  /** Reads a node. */
  static TpuNode read(JsonReader in) throws IOException {
    Fields node = new Fields();
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "name" -> node.name = GoogleJson.string(in);
        case "healthDescription" -> node.healthDescription = GoogleJson.string(in);
        case "acceleratorType" -> node.acceleratorType = GoogleJson.string(in);
        case "state" -> node.state = GoogleJson.enumNumber(in, TpuNode::stateNumber);
        case "health" -> node.health = GoogleJson.enumNumber(in, TpuNode::healthNumber);
        case "networkEndpoints" -> node.endpoints.addAll(GoogleJson.list(in, TpuNode::endpoint));
        default -> in.skipValue();
      }
    }
    return new TpuNode(node.name, State.of(node.state), Health.of(node.health), node.healthDescription,
        node.acceleratorType, node.endpoints);
  }

  /** A node's fields as they are read (enums as their API numbers). */
  private static final class Fields {
    String name = "";
    String healthDescription = "";
    String acceleratorType = "";
    int state;
    int health;
    final List<Endpoint> endpoints = new ArrayList<>();
  }

  private static Endpoint endpoint(JsonReader in) throws IOException {
    String ip = "";
    int port = 0;
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "ipAddress" -> ip = GoogleJson.string(in);
        case "port" -> port = GoogleJson.int32(in);
        default -> in.skipValue();
      }
    }
    return new Endpoint(ip, port);
  }

  private static int stateNumber(String name) {
    return number(State.values(), s -> s.number, name);
  }

  private static int healthNumber(String name) {
    return number(Health.values(), h -> h.number, name);
  }

  /** The value whose API number is {@code number}, else {@code unrecognized}. */
  private static <E extends Enum<E>> E byNumber(E[] values, ToIntFunction<E> numberOf, int number, E unrecognized) {
    for (E value : values) {
      if (numberOf.applyAsInt(value) == number) {
        return value;
      }
    }
    return unrecognized;
  }

  /** The API number of the value named {@code name}, -1 when there is none. */
  private static <E extends Enum<E>> int number(E[] values, ToIntFunction<E> numberOf, String name) {
    for (E value : values) {
      if (value.name().equals(name) && !"UNRECOGNIZED".equals(name)) {
        return numberOf.applyAsInt(value);
      }
    }
    return -1;
  }
}
