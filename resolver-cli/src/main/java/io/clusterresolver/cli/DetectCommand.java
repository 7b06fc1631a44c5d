package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ResolverContext;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;

/** {@code cluster-resolver detect}: names the provider that applies to this process. */
@Command(
    name = "detect",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the name of the provider that applies here: the highest-priority provider whose"
          + " availability check holds, 'local' last. Checks are cheap local hints first; a"
          + " metadata probe waits at most a short connect timeout.",
      ""
    })
public final class DetectCommand extends Subcommand {

  private final PropertyOptions propertyOptions = new PropertyOptions();

  /** Its model, built in code: picocli takes a mixin given as a {@code CommandSpec} as it is. */
  @Mixin(name = "propertyOptions") private final CommandSpec propertyOptionsModel = propertyOptions.model();

  @Option(names = {"-v", "--verbose"}, description = "Also print, on stderr, each provider tried and its answer.")
  private boolean verbose;

  @Override
  public Integer call() {
    ResolverContext context = ResolverContext.of(propertyOptions.sources(environment(), Map.of()));
    ClusterResolverProvider found;
    if (verbose) {
      PrintWriter err = err();
      found = null;
      for (ClusterResolverProvider provider : ClusterResolvers.providers()) {
        long start = System.nanoTime();
        boolean available = ClusterResolvers.isAvailable(provider, context);
        err.printf("%-10s priority %11d  %-13s %4d ms%n", provider.name(), provider.priority(),
            available ? "applies" : "does not apply", (System.nanoTime() - start) / 1_000_000);
        if (available) {
          found = provider;
          break;
        }
      }
      err.flush();
      if (found == null) {
        found = ClusterResolvers.detectProvider(context); // throws the usual "none applies" error
      }
    } else {
      found = ClusterResolvers.detectProvider(context);
    }
    out().println(found.name());
    out().flush();
    return ExitCodes.OK;
  }
}
