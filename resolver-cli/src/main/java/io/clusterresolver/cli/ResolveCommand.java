package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code cluster-resolver resolve}: prints the cluster and this process's place in it. */
@Command(
    name = "resolve",
    mixinStandardHelpOptions = true,
    description = {
      "Resolves the cluster with the named provider, or with the first that applies here"
          + " ('local' last), and prints it.",
      "",
      "Formats:",
      "  json       {\"cluster\": {job: [addresses] or {index: address}},",
      "             \"task\": {\"type\": ..., \"index\": ...}, \"rpc_layer\": ...,",
      "             \"environment\": ..., \"accelerators\": {...}}",
      "  tf-config  the TF_CONFIG JSON of this task, on one line",
      "  hostfile   an MPI hostfile: one host per line, 'HOST slots=N' when a host",
      "             carries N > 1 tasks",
      "  env        TF_CONFIG, MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK and",
      "             CUDA_VISIBLE_DEVICES (when known), shell-quoted and exported:",
      "             eval \"$(cluster-resolver resolve --format env)\"",
      "  table      for a person: every task in rank order, this task marked (*)",
      "             with its accelerators",
      "Ranks (RANK, hostfile order): the chief job first, then the other jobs by",
      "name; within a job, tasks by index.",
      ""
    })
public final class ResolveCommand implements Callable<Integer> {

  @ParentCommand private ClusterResolverCommand parent;

  @Spec private CommandSpec spec;

  @Mixin private ResolverOptions resolverOptions;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "json",
      converter = OutputFormat.Converter.class,
      description = "json (default), tf-config, hostfile, env or table.")
  private OutputFormat format;

  @Option(
      names = "--simulate",
      description = "Resolve against an in-process simulation of the provider's cloud with a small demo"
          + " fleet (needs --provider; available: aws). The whole path runs: the real SDK, paging,"
          + " signing, the metadata service. No account needed.")
  private boolean simulate;

  @Override
  public Integer call() {
    if (simulate) {
      if (resolverOptions.providerName() == null) {
        throw new ConfigurationException("--simulate needs --provider NAME (for example --provider aws)");
      }
      Answer answer;
      try {
        answer = SimulatedRun.resolve(resolverOptions.providerName(), spec.commandLine().getErr(),
            defaults -> resolverOptions.select(parent.environment(), defaults).resolve());
      } catch (NoClassDefFoundError missing) {
        if (!String.valueOf(missing.getMessage()).contains("io/clusterresolver/testkit")) {
          throw missing; // not the simulations: a bug or a broken provider, reported as such
        }
        throw new ConfigurationException("--simulate needs the simulations, which are not on the class path ("
            + missing.getMessage() + "): run bin/cluster-resolver of the full distribution, which adds its sim/"
            + " folder for --simulate");
      }
      return print(answer);
    }
    return print(resolverOptions.select(parent.environment()).resolve());
  }

  private int print(Answer resolution) {
    String text = format.render(resolution); // complete before anything reaches stdout
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
