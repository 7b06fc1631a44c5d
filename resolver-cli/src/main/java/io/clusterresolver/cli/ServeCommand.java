package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.runtime.TaskServer;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cluster-resolver serve}: runs this process's task server until interrupted. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Resolves the cluster and serves this process's task (like tf.distribute.Server) until"
          + " interrupted: its devices (CPU:0 plus one per accelerator), health, the cluster, and"
          + " the built-in functions 'echo' and 'sha256'.",
      "Listens on loopback unless --bind says otherwise.",
      ""
    })
public final class ServeCommand extends ResolvingSubcommand {

  @Mixin private TransportOptions transport;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "The address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
  private String bind;

  @Option(names = "--port", paramLabel = "PORT",
      description = "Listen on this port instead of the one in the task's address (0: any).")
  private Integer port;

  @Override
  public Integer call() throws Exception {
    Answer resolution = resolverOptions.select(environment()).resolve();
    if (resolution.taskType() == null || resolution.taskIndex() == null) {
      throw new ConfigurationException("serve: provider '" + resolution.provider()
          + "' does not say which task this process is; give --task-type and --task-id");
    }
    TaskServer.Builder builder =
        TaskServer.builder(resolution.clusterSpec(), resolution.taskType(), resolution.taskIndex())
            .accelerators(resolution.accelerators())
            .bindAddress(bindAddress())
            .deviceFilters(transport.deviceFilters())
            .tls(transport.tls(environment()))
            .function("echo", input -> input)
            .function("sha256", input -> MessageDigest.getInstance("SHA-256").digest(input));
    if (port != null) {
      builder.port(port);
    }
    TaskServer server = builder.start();
    Thread hook = new Thread(server::close, "cluster-resolver-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    PrintWriter out = out();
    out.println("Serving " + server.taskName() + " on " + bind + ":" + server.port()
        + " (provider " + resolution.provider() + ")");
    server.devices().forEach(device -> out.println("  " + device));
    out.flush();
    try {
      server.awaitTermination();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      server.close();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is exiting; the hook runs anyway.
      }
    }
    return ExitCodes.OK;
  }

  private InetAddress bindAddress() {
    try {
      return InetAddress.getByName(bind);
    } catch (UnknownHostException e) {
      throw new ConfigurationException("--bind " + bind + ": unknown address", e);
    }
  }

}
