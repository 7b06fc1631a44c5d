package io.clusterresolver.cloud;

import java.util.Map;
import java.util.function.Function;

/**
 * Labels (tags) every selected member must carry, compared exactly on the client: what a cloud's
 * server-side filter cannot say, or says loosely, is checked again here. Immutable.
 *
 * @param wanted each {@code name=value} a member must hold; none selects every member
 */
public record RequiredLabels(Map<String, String> wanted) {

  /** Every label required. */
  public RequiredLabels {
    wanted = Map.copyOf(wanted);
  }

  /** Whether {@code labels} hold every wanted {@code name=value}, names and values exactly. */
  public boolean matches(Map<String, String> labels) {
    Map<String, String> held = labels == null ? Map.of() : labels;
    for (Map.Entry<String, String> label : wanted.entrySet()) {
      if (!label.getValue().equals(held.get(label.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every wanted value is exactly the value {@code valueOf} finds for its name (a cloud whose names
   * match ignoring case finds them its way); {@code valueOf} answers {@code null} for a name not held.
   */
  public boolean matches(Function<String, String> valueOf) {
    for (Map.Entry<String, String> label : wanted.entrySet()) {
      if (!label.getValue().equals(valueOf.apply(label.getKey()))) {
        return false;
      }
    }
    return true;
  }
}
