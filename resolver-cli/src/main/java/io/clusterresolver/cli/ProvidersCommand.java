package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.internal.PropertyTable;
import io.clusterresolver.spi.ResolverContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code cluster-resolver providers}: every provider on the classpath, in detection order, with
 * its priority, whether it applies here, and the properties it reads.
 */
@Command(
    name = "providers",
    mixinStandardHelpOptions = true,
    description = {
      "Lists the providers on the classpath in detection order: priority, whether each applies here,"
          + " and every property it reads (key, type, default, required, secret, description).",
      "Each key may also be set as the environment variable CLUSTERRESOLVER_<PROVIDER>_<NAME>.",
      ""
    })
public final class ProvidersCommand extends Subcommand {

  private final PropertyOptions propertyOptions = new PropertyOptions();

  /** Its model, built in code: picocli takes a mixin given as a {@code CommandSpec} as it is. */
  @Mixin(name = "propertyOptions") private final CommandSpec propertyOptionsModel = propertyOptions.model();

  @Option(names = "--markdown", description = "Print the Markdown tables module READMEs carry instead of plain text.")
  private boolean markdown;

  @Override
  public Integer call() {
    ResolverContext context = ResolverContext.of(propertyOptions.sources(environment(), Map.of()));
    StringBuilder out = new StringBuilder();
    for (ClusterResolverProvider provider : ClusterResolvers.providers()) {
      if (out.length() > 0) {
        out.append('\n');
      }
      if (markdown) {
        out.append("### `").append(provider.name()).append("`\n\n")
            .append("Priority ").append(priority(provider)).append(".\n\n")
            .append(PropertyTable.markdown(provider.name(), provider.properties()));
      } else {
        boolean applies = ClusterResolvers.isAvailable(provider, context);
        out.append(provider.name()).append("  priority ").append(priority(provider)).append("  ")
            .append(applies ? "applies here" : "does not apply here").append('\n')
            .append(textTable(provider));
      }
    }
    out().print(out);
    out().flush();
    return ExitCodes.OK;
  }

  private static String priority(ClusterResolverProvider provider) {
    int priority = provider.priority();
    return priority == Integer.MIN_VALUE ? "lowest (" + priority + ")" : Integer.toString(priority);
  }

  private static String textTable(ClusterResolverProvider provider) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("KEY", "TYPE", "DEFAULT", "REQUIRED", "SECRET", "DESCRIPTION"));
    rows.addAll(rows(provider));
    if (rows.size() == 1) {
      return "  (reads no properties)\n";
    }
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int c = 0; c < columns; c++) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder("  ");
      for (int c = 0; c < columns; c++) {
        line.append(c < columns - 1 ? String.format("%-" + widths[c] + "s  ", row.get(c)) : row.get(c));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  private static List<List<String>> rows(ClusterResolverProvider provider) {
    List<List<String>> rows = new ArrayList<>();
    for (ConfigProperty property : provider.properties()) {
      String defaultValue = property.defaultValue() == null ? "-"
          : property.secret() ? "(hidden)" : property.defaultValue().isEmpty() ? "\"\"" : property.defaultValue();
      String type = property.type().name().toLowerCase(Locale.ROOT);
      if (!property.allowedValues().isEmpty()) {
        type += " (" + String.join("|", property.allowedValues()) + ")";
      }
      rows.add(List.of(property.key(provider.name()), type, defaultValue,
          property.required() ? "yes" : "no", property.secret() ? "yes" : "no", property.description()));
    }
    return rows;
  }
}
