package io.clusterresolver.internal;

import io.clusterresolver.spi.ConfigProperty;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

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
  public static String markdown(String provider, List<ConfigProperty<?>> properties) {
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

  /**
   * Checks a README's table against a provider's declarations: the problem (with the table to paste
   * in its place), or empty when the README is up to date. With {@code rewrite} the declared table
   * is first written into the file (a module's test passes {@code -Dupdate.readme=true} for that).
   */
  public static Optional<String> verifyReadme(
      Path readme, String provider, List<ConfigProperty<?>> properties, boolean rewrite) throws IOException {
    String expected = markdown(provider, properties);
    String text = Files.readString(readme);
    if (rewrite) {
      int begin = text.indexOf(BEGIN);
      int end = text.indexOf(END);
      extract(text); // the markers must be there
      text = text.substring(0, begin + BEGIN.length()) + "\n" + expected + text.substring(end);
      Files.writeString(readme, text);
    }
    return extract(text).equals(expected) ? Optional.empty()
        : Optional.of(readme + ": the properties table is out of date (rerun its test with "
            + "-Dupdate.readme=true, or replace it with):\n" + expected);
  }
}
