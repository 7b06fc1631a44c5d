package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** DescribeInstances filters ({@code Filter.N.Name}/{@code Filter.N.Value.M}) and how instances match them. */
final class Ec2Filters {

  private Ec2Filters() {}

  static Map<String, List<String>> parse(Map<String, String> params) {
    Map<String, String> names = new TreeMap<>();
    params.forEach((k, v) -> {
      if (k.startsWith("Filter.") && k.endsWith(".Name")) {
        names.put(k.substring(7, k.length() - 5), v);
      }
    });
    Map<String, List<String>> filters = new LinkedHashMap<>();
    names.forEach((n, name) -> {
      List<String> values = new ArrayList<>();
      String prefix = "Filter." + n + ".Value.";
      params.forEach((k, v) -> {
        if (k.startsWith(prefix)) {
          values.add(v);
        }
      });
      filters.computeIfAbsent(name, x -> new ArrayList<>()).addAll(values);
    });
    for (String name : filters.keySet()) {
      if (!name.startsWith("tag:") && !Set.of("tag-key", "tag-value", "instance-state-name", "availability-zone", "instance-id",
          "vpc-id", "subnet-id", "instance-type").contains(name)) {
        throw new Ec2QueryWire.BadRequest("InvalidParameterValue", "The filter '" + name + "' is invalid");
      }
    }
    return filters;
  }

  static boolean matches(SimulatedInstance i, Map<String, List<String>> filters) {
    for (Map.Entry<String, List<String>> f : filters.entrySet()) {
      String name = f.getKey();
      List<String> values = f.getValue();
      boolean ok;
      if (name.startsWith("tag:")) {
        String tag = i.tags().get(name.substring(4));
        ok = tag != null && anyMatch(values, tag);
      } else {
        switch (name) {
          case "tag-key":
            ok = i.tags().keySet().stream().anyMatch(k -> anyMatch(values, k));
            break;
          case "tag-value":
            ok = i.tags().values().stream().anyMatch(v -> anyMatch(values, v));
            break;
          case "instance-state-name":
            ok = anyMatch(values, i.state().apiName());
            break;
          case "availability-zone":
            ok = anyMatch(values, i.availabilityZone());
            break;
          case "instance-id":
            ok = anyMatch(values, i.instanceId());
            break;
          case "vpc-id":
            ok = i.vpcId() != null && anyMatch(values, i.vpcId());
            break;
          case "subnet-id":
            ok = i.subnetId() != null && anyMatch(values, i.subnetId());
            break;
          default:
            ok = anyMatch(values, i.instanceType());
        }
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** EC2 filter values: {@code *} matches any run, {@code ?} one character, case-sensitive. */
  private static boolean anyMatch(List<String> patterns, String value) {
    for (String p : patterns) {
      if (p.indexOf('*') < 0 && p.indexOf('?') < 0 ? p.equals(value) : GLOBS.computeIfAbsent(p, Ec2Filters::glob)
          .matcher(value).matches()) {
        return true;
      }
    }
    return false;
  }

  private static final Map<String, Pattern> GLOBS = new ConcurrentHashMap<>();

  private static Pattern glob(String p) {
    StringBuilder regex = new StringBuilder();
    for (char c : p.toCharArray()) {
      regex.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
    }
    return Pattern.compile(regex.toString());
  }
}
