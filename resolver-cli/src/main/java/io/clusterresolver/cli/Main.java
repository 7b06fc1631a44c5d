package io.clusterresolver.cli;

/** The entry point of the runnable jar: {@code java -jar cluster-resolver.jar <command>}. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(ClusterResolverCommand.execute(args));
  }
}
