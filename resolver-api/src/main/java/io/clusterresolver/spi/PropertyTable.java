package io.clusterresolver.spi;

import java.util.List;

/**
 * Renders a provider's declared properties as the Markdown table its README shows. A module's
 * test compares its README with this rendering, so the documentation cannot drift from the
 * declarations.
 */
public final class PropertyTable {

  /** The line before the generated table in a README. */
  public static final String BEGIN = "<!-- properties:begin (generated from properties(); checked by a test) -->";
  /** The line after the generated table in a README. */
  public static final String END = "<!-- properties:end -->";

  private PropertyTable() {}

  /** The table: key, environment variable, type, default, meaning. */
  public static String markdown(String provider, List<ConfigProperty> properties) {
    StringBuilder table = new StringBuilder()
        .append("| property | environment variable | type | default | meaning |\n")
        .append("| --- | --- | --- | --- | --- |\n");
    for (ConfigProperty p : properties) {
      String defaultValue = p.secret() ? "(secret)"
          : p.defaultValue() == null ? (p.required() ? "required" : "—")
          : p.defaultValue().isEmpty() ? "`\"\"`" : "`" + p.defaultValue() + "`";
      String type = p.type().name().toLowerCase(java.util.Locale.ROOT)
          + (p.allowedValues().isEmpty() ? "" : ": " + String.join(" \\| ", p.allowedValues()));
      table.append("| `").append(p.key(provider)).append("` | `").append(p.environmentVariable(provider))
          .append("` | ").append(type).append(" | ").append(defaultValue).append(" | ")
          .append(p.description().replace("|", "\\|")).append(p.secret() ? " (secret: never shown)" : "")
          .append(" |\n");
    }
    return table.toString();
  }

  /**
   * The table as it stands between {@link #BEGIN} and {@link #END} in a README's text.
   *
   * @throws IllegalArgumentException if the markers are missing
   */
  public static String extract(String readme) {
    int begin = readme.indexOf(BEGIN);
    int end = readme.indexOf(END);
    if (begin < 0 || end < begin) {
      throw new IllegalArgumentException("README has no generated properties table between "
          + BEGIN + " and " + END);
    }
    return readme.substring(begin + BEGIN.length(), end).strip() + "\n";
  }
}
