package io.clusterresolver.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;

/** A subcommand that resolves the cluster first, with {@code resolve}'s options (provider, properties, task). */
abstract class ResolvingSubcommand extends Subcommand {

  final ResolverOptions resolverOptions = new ResolverOptions();

  /** Its model, built in code: picocli takes a mixin given as a {@code CommandSpec} as it is. */
  @Mixin(name = "resolverOptions") private final CommandSpec resolverOptionsModel = resolverOptions.model();
}
