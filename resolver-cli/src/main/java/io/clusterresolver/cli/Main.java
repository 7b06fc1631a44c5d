package io.clusterresolver.cli;

/** The entry point of the command: {@code bin/cluster-resolver <command>} of the distribution. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(ClusterResolverCommand.execute(args));
  }
}
