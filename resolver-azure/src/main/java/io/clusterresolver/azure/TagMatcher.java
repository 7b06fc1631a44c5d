package io.clusterresolver.azure;

import io.clusterresolver.cloud.RequiredLabels;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which VMs the configured tags select, and the tags a member carries as labels. Tag values are
 * always compared exactly; tag names exactly too, unless {@code tag-names-case-insensitive=true}
 * (ARM itself treats names case-insensitively, so {@code Role} and {@code role} may both appear).
 * Immutable.
 */
final class TagMatcher {

  private final RequiredLabels wanted;
  private final Set<String> names;
  private final boolean ignoreNameCase;

  /**
   * @param wanted tags every member must hold
   * @param names the tag names the layout reads ({@code job-tag}, {@code order=tag:KEY}), spelled as configured
   * @param ignoreNameCase whether names match ignoring case
   */
  TagMatcher(Map<String, String> wanted, Set<String> names, boolean ignoreNameCase) {
    this.wanted = new RequiredLabels(wanted);
    this.names = Set.copyOf(names);
    this.ignoreNameCase = ignoreNameCase;
  }

  /** Whether the tags hold every wanted {@code name=value}. */
  boolean matches(Map<String, String> tags) {
    Map<String, String> t = tags == null ? Map.of() : tags;
    return wanted.matches(name -> value(t, name));
  }

  /** The tags as labels; with case-insensitive names, a name the layout reads is spelled as configured. */
  Map<String, String> labels(Map<String, String> tags) {
    Map<String, String> labels = new LinkedHashMap<>(tags == null ? Map.of() : tags);
    if (ignoreNameCase) {
      for (String name : names) {
        String value = value(labels, name);
        if (value != null) {
          labels.put(name, value);
        }
      }
    }
    return labels;
  }

  private String value(Map<String, String> tags, String name) {
    String exact = tags.get(name);
    if (exact != null || !ignoreNameCase) {
      return exact;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, String> e : tags.entrySet()) {
      if (e.getKey().toLowerCase(Locale.ROOT).equals(lower)) {
        return e.getValue();
      }
    }
    return null;
  }
}
