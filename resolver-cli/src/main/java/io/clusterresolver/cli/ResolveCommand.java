package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code cluster-resolver resolve}: prints the cluster and this process's place in it. Every resolve runs this
 * command, so its picocli model is built in code ({@link #model()}) rather than read from annotations: reading
 * them spun 8 annotation proxy classes and reflected over every class involved at each start (issue 23).
 * {@code UsageGoldenTest} holds its help and usage errors to what the annotated command printed.
 */
public final class ResolveCommand implements Callable<Integer> {

  static final String NAME = "resolve";

  private static final String[] DESCRIPTION = {
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
  };

  private final ClusterResolverCommand parent;

  private final ResolverOptions resolverOptions = new ResolverOptions();

  private final OptionSpec format = OptionSpec.builder("--format")
      .paramLabel("FORMAT")
      .type(OutputFormat.class)
      .defaultValue("json")
      .converters(new OutputFormat.Converter())
      .description("json (default), tf-config, hostfile, env or table.")
      .build();

  private final OptionSpec simulate = OptionSpec.builder("--simulate")
      .type(boolean.class)
      .description("Resolve against an in-process simulation of the provider's cloud with a small demo fleet"
          + " (needs --provider; available: aws). The whole path runs: the real SDK, paging, signing, the"
          + " metadata service. No account needed.")
      .build();

  private final CommandSpec spec;

  /** The command under {@code parent}, whose environment it reads. */
  ResolveCommand(ClusterResolverCommand parent) {
    this.parent = parent;
    this.spec = CommandSpec.wrapWithoutInspection(this).name(NAME);
    spec.usageMessage().description(DESCRIPTION);
    // In the order picocli took the annotated members: the mixin, the command's own options, then -h and -V.
    spec.addMixin("resolverOptions", resolverOptions.model())
        .addOption(format)
        .addOption(simulate);
    StandardHelpOptions.addTo(spec);
  }

  /** The model of this command, for {@code CommandLine.addSubcommand}. */
  CommandSpec model() {
    return spec;
  }

  @Override
  public Integer call() {
    if (Boolean.TRUE.equals(simulate.getValue())) {
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
    String text = format.<OutputFormat>getValue().render(resolution); // complete before anything reaches stdout
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
