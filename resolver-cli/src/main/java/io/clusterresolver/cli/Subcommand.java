package io.clusterresolver.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * A subcommand whose model picocli reads from its annotations (every one but {@code resolve}): the environment
 * comes from its parent, its output goes to the streams its command line was given.
 */
abstract class Subcommand implements Callable<Integer> {

  @ParentCommand private ClusterResolverCommand parent;

  @Spec private CommandSpec spec;

  /** The environment variables resolvers read and {@code CLUSTERRESOLVER_*} settings come from. */
  final Map<String, String> environment() {
    return parent.environment();
  }

  /** The command line's standard output. */
  final PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** The command line's standard error. */
  final PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
