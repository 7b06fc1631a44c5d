package io.clusterresolver.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The grammar of a Kubernetes label selector, checked before any request so that a malformed one is a
 * configuration error naming the key, not the API server's 400. Requirements are separated by commas
 * (AND): {@code key}, {@code !key}, {@code key=value}, {@code key==value}, {@code key!=value},
 * {@code key in (v1, v2)}, {@code key notin (v1, v2)}, and the API server's {@code key>3} and
 * {@code key<3} (integer values). A key is an optional DNS-subdomain prefix and {@code /}, then a name
 * of at most 63 characters: alphanumerics with {@code -}, {@code _} or {@code .} inside. A value is
 * empty or such a name. Whitespace between tokens is ignored, as the API server's parser does.
 */
final class LabelSelectorSyntax {

  /** A token of the API server's lexer: anything but whitespace and the selector's operators. */
  private static final String WORD = "[^\\s,=!()<>]+";
  private static final Pattern EXISTS = Pattern.compile("\\s*(!?)\\s*(" + WORD + ")\\s*");
  private static final Pattern EQUALITY = Pattern.compile("\\s*(" + WORD + ")\\s*(==|=|!=)\\s*(" + WORD + ")?\\s*");
  private static final Pattern SET = Pattern.compile("\\s*(" + WORD + ")\\s+(in|notin)\\s*\\(([^()]*)\\)\\s*");
  private static final Pattern NUMERIC = Pattern.compile("\\s*(" + WORD + ")\\s*([<>])\\s*(" + WORD + ")\\s*");
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)");
  private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final String FORMS = "use key, !key, key=value, key!=value, key in (v1,v2) or key notin (v1,v2),"
      + " separated by commas, like app=trainer,role in (worker,ps)";

  private LabelSelectorSyntax() {}

  /**
   * Adds to {@code problems} what is wrong with {@code selector}, naming {@code key}. A missing or
   * blank selector is left to the caller.
   */
  static void check(String key, String selector, List<String> problems) {
    if (selector == null || selector.isBlank()) {
      return;
    }
    problem(selector).ifPresent(p -> problems.add(key + ": '" + selector + "' is not a label selector: " + p
        + "; " + FORMS));
  }

  /** What is wrong with {@code selector}, if anything. */
  static Optional<String> problem(String selector) {
    for (String requirement : requirements(selector)) {
      Optional<String> p = requirementProblem(requirement);
      if (p.isPresent()) {
        return p;
      }
    }
    return Optional.empty();
  }

  /** The comma-separated requirements, commas inside parentheses kept. */
  private static List<String> requirements(String selector) {
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
    return parts;
  }

  private static Optional<String> requirementProblem(String requirement) {
    if (requirement.isBlank()) {
      return Optional.of("an empty requirement (a comma too many?)");
    }
    return formProblem(requirement).map(p -> "requirement '" + requirement.trim() + "'" + p);
  }

  /** What is wrong with one requirement, said after it ({@code ": the key …"}). */
  private static Optional<String> formProblem(String requirement) {
    Matcher set = SET.matcher(requirement);
    if (set.matches()) {
      Optional<String> p = keyProblem(set.group(1));
      if (p.isEmpty() && set.group(3).isBlank()) {
        p = Optional.of("'" + set.group(2) + "' needs at least one value");
      }
      for (String value : set.group(3).split(",", -1)) {
        p = p.or(() -> valueProblem(value.trim()));
      }
      return p.map(s -> ": " + s);
    }
    Matcher exists = EXISTS.matcher(requirement);
    if (exists.matches() && !exists.group(2).equals("in") && !exists.group(2).equals("notin")) {
      return keyProblem(exists.group(2)).map(s -> ": " + s);
    }
    Matcher equality = EQUALITY.matcher(requirement);
    if (equality.matches()) {
      String value = equality.group(3) == null ? "" : equality.group(3);
      return keyProblem(equality.group(1)).or(() -> valueProblem(value)).map(s -> ": " + s);
    }
    Matcher numeric = NUMERIC.matcher(requirement);
    if (numeric.matches()) {
      String operator = numeric.group(2);
      String value = numeric.group(3);
      return keyProblem(numeric.group(1)).or(() -> value.matches("-?[0-9]{1,18}") ? Optional.empty()
          : Optional.of("'" + operator + "' needs an integer, not '" + value + "'")).map(s -> ": " + s);
    }
    return Optional.of(" is none of the requirement forms");
  }

  /** A label key: {@code [prefix/]name}. */
  private static Optional<String> keyProblem(String key) {
    int slash = key.indexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      if (prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
        return Optional.of("the key prefix '" + prefix + "' is not a DNS subdomain (lower-case alphanumerics,"
            + " '-' and '.', at most 253 characters)");
      }
    }
    if (name.length() > 63 || !NAME.matcher(name).matches()) {
      return Optional.of("the key name '" + name + "' must be 1 to 63 alphanumerics, with '-', '_' or '.' inside");
    }
    return Optional.empty();
  }

  private static Optional<String> valueProblem(String value) {
    if (value.isEmpty() || (value.length() <= 63 && NAME.matcher(value).matches())) {
      return Optional.empty();
    }
    return Optional.of("the value '" + value + "' must be empty or at most 63 alphanumerics, with '-', '_' or '.'"
        + " inside");
  }
}
