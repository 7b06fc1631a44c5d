package io.clusterresolver.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

/** One in-process run of the command: exit code and what it wrote. */
final class CliRun {
  final int code;
  final String out;
  final String err;

  private CliRun(int code, String out, String err) {
    this.code = code;
    this.out = out;
    this.err = err;
  }

  static CliRun run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = ClusterResolverCommand.execute(environment, new PrintWriter(out), new PrintWriter(err), args);
    return new CliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
