package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of Compute Engine's list {@code filter} grammar the simulation understands: comparisons
 * {@code FIELD = VALUE} or {@code FIELD != VALUE} (the value quoted or bare), each optionally in
 * parentheses, joined by {@code AND} or by spaces; and the older {@code FIELD eq REGEX} / {@code FIELD ne
 * REGEX}, the value a regular expression the whole field must match (Hazelcast's GCP discovery sends
 * {@code labels.KEY eq VALUE}). Fields: {@code labels.KEY}, {@code status},
 * {@code name}, {@code zone} (the zone name), {@code machineType} (the type name). Anything else is
 * answered 400 {@code invalid}, as the real API answers a filter it cannot parse.
 */
final class GceFilter {

  private static final Pattern TERM = Pattern.compile(
      "\\s*(\\()?\\s*([A-Za-z][A-Za-z0-9_.\\-]*)\\s*(=|!=|eq(?=\\s)|ne(?=\\s))\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|([^\\s()\"]+))\\s*(\\))?\\s*(AND\\s+)?");

  private final List<String[]> terms;

  private GceFilter(List<String[]> terms) {
    this.terms = terms;
  }

  static GceFilter parse(String filter) {
    List<String[]> terms = new ArrayList<>();
    if (filter == null || filter.isBlank()) {
      return new GceFilter(terms);
    }
    Matcher m = TERM.matcher(filter);
    int at = 0;
    while (at < filter.length() && m.find(at) && m.start() == at) {
      if ((m.group(1) == null) != (m.group(7) == null)) {
        throw invalid(filter);
      }
      String value = m.group(5) != null ? m.group(5).replaceAll("\\\\(.)", "$1") : m.group(6);
      terms.add(new String[] {m.group(2), m.group(3), value});
      at = m.end();
    }
    if (at < filter.length() || terms.isEmpty()) {
      throw invalid(filter);
    }
    return new GceFilter(terms);
  }

  private static GceJson.ApiError invalid(String filter) {
    return GceJson.ApiError.invalid("Invalid value for field 'filter': '" + filter + "'. Invalid list filter expression.");
  }

  boolean matches(SimulatedGceInstance i) {
    for (String[] t : terms) {
      String actual;
      if (t[0].startsWith("labels.")) {
        actual = i.labels().get(t[0].substring("labels.".length()));
      } else {
        actual = switch (t[0]) {
          case "status" -> i.status();
          case "name" -> i.name();
          case "zone" -> i.zone();
          case "machineType" -> i.machineType();
          default -> throw GceJson.ApiError.invalid("Invalid value for field 'filter': unknown field '" + t[0] + "'.");
        };
      }
      boolean regex = t[1].equals("eq") || t[1].equals("ne");
      boolean equal = regex ? actual != null && actual.matches(t[2]) : t[2].equals(actual);
      if (equal != (t[1].equals("=") || t[1].equals("eq"))) {
        return false;
      }
    }
    return true;
  }
}
