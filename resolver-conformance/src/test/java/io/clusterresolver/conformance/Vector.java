package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;

/** One vector of a {@code tf-cluster-resolver-vectors/1} file: a setup and steps run in order on one object. */
public final class Vector {

  private final JsonNode node;
  private final List<Step> steps = new ArrayList<>();

  Vector(JsonNode node) {
    this.node = node;
    for (JsonNode step : node.path("steps")) {
      steps.add(new Step(step));
    }
  }

  public String id() {
    return node.path("id").asText();
  }

  /** The area-specific inputs. */
  public JsonNode setup() {
    return node.has("setup") ? node.get("setup") : MissingNode.getInstance();
  }

  /** The deviation rule covering every step, or {@code null}. */
  public String deviation() {
    return Step.text(node, "deviation");
  }

  public List<Step> steps() {
    return steps;
  }

  /** One step: an op with arguments and TF's outcome, plus the Java expectation where it differs. */
  public static final class Step {
    private final JsonNode node;

    Step(JsonNode node) {
      this.node = node;
    }

    public String op() {
      return node.path("op").asText();
    }

    /** The positional arguments (possibly empty). */
    public List<JsonNode> args() {
      List<JsonNode> args = new ArrayList<>();
      node.path("args").forEach(args::add);
      return args;
    }

    /** Positional argument {@code i}, or a missing node. */
    public JsonNode arg(int i) {
      return node.path("args").path(i);
    }

    /** A keyword argument, or a missing node. */
    public JsonNode kwarg(String name) {
      return node.path("kwargs").path(name);
    }

    public boolean hasArgs() {
      return node.path("args").size() > 0 || node.path("kwargs").size() > 0;
    }

    public boolean hasValue() {
      return node.has("value");
    }

    public JsonNode value() {
      return node.get("value");
    }

    public JsonNode error() {
      return node.get("error");
    }

    public String notRun() {
      return text(node, "not_run");
    }

    public String deviation() {
      return text(node, "deviation");
    }

    public JsonNode java() {
      return node.get("java");
    }

    public String expectJavaError() {
      return text(node, "expect_java_error");
    }

    public JsonNode json() {
      return node;
    }

    static String text(JsonNode node, String field) {
      JsonNode value = node.get(field);
      return value == null || value.isNull() ? null : value.asText();
    }

    @Override
    public String toString() {
      return op() + (node.has("args") ? node.get("args").toString() : "")
          + (node.has("kwargs") ? node.get("kwargs").toString() : "");
    }
  }
}
