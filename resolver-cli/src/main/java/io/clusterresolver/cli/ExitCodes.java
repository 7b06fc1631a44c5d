package io.clusterresolver.cli;

/** The exit codes of the {@code cluster-resolver} command. */
public final class ExitCodes {

  /** Success: the answer is on standard output. */
  public static final int OK = 0;

  /** A bug in the command itself; the stack trace goes to stderr. */
  public static final int INTERNAL_ERROR = 1;

  /**
   * Wrong usage or configuration: an unknown option or provider, an invalid or misspelled property,
   * a malformed variable such as {@code TF_CONFIG}. Change the command line or the configuration.
   */
  public static final int USAGE = 2;

  /**
   * The configuration is valid but the source of truth (a cloud API, the scheduler, a metadata
   * server) could not give an answer. Retrying later may help.
   */
  public static final int RESOLUTION_FAILURE = 3;

  private ExitCodes() {}
}
