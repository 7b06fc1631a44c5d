package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes label selector grammar: equality-based ({@code k=v}, {@code k==v}, {@code k!=v})
 * and set-based ({@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}) requirements
 * joined by commas, all of which must hold.
 */
final class LabelSelectors {

  private static final Pattern IN = Pattern.compile("([^\\s!=]+)\\s+(in|notin)\\s+\\(([^)]*)\\)");
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9][-A-Za-z0-9_./]*");

  private LabelSelectors() {}

  /** A request with a selector the API server cannot parse. */
  static final class InvalidSelector extends IllegalArgumentException {
    InvalidSelector(String message) {
      super(message);
    }
  }

  /**
   * Parses a selector; {@code null} or empty selects everything.
   *
   * @throws InvalidSelector for text the API server would reject (400)
   */
  static Predicate<Map<String, String>> parse(String selector) {
    List<Predicate<Map<String, String>>> all = new ArrayList<>();
    if (selector != null) {
      for (String requirement : split(selector)) {
        all.add(requirement(requirement.trim()));
      }
    }
    return labels -> all.stream().allMatch(p -> p.test(labels));
  }

  private static Predicate<Map<String, String>> requirement(String r) {
    Matcher in = IN.matcher(r);
    if (in.matches()) {
      String key = key(in.group(1));
      Set<String> values = Set.of(in.group(3).trim().split("\\s*,\\s*"));
      boolean positive = in.group(2).equals("in");
      return labels -> positive ? values.contains(labels.get(key))
          : !labels.containsKey(key) || !values.contains(labels.get(key));
    }
    int ne = r.indexOf("!=");
    if (ne > 0) {
      String key = key(r.substring(0, ne).trim());
      String value = r.substring(ne + 2).trim();
      return labels -> !value.equals(labels.get(key));
    }
    int eq = r.indexOf('=');
    if (eq > 0) {
      String key = key(r.substring(0, eq).trim());
      String value = r.substring(r.startsWith("==", eq) ? eq + 2 : eq + 1).trim();
      return labels -> value.equals(labels.get(key));
    }
    if (r.startsWith("!")) {
      String key = key(r.substring(1).trim());
      return labels -> !labels.containsKey(key);
    }
    String key = key(r);
    return labels -> labels.containsKey(key);
  }

  private static String key(String key) {
    if (!KEY.matcher(key).matches()) {
      throw new InvalidSelector("unable to parse requirement: invalid label key \"" + key + "\"");
    }
    return key;
  }

  /** Splits at commas outside parentheses. */
  private static List<String> split(String selector) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(selector.substring(start));
    parts.removeIf(p -> p.isBlank());
    return parts;
  }
}
