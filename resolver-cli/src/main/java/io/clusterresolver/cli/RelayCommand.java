package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.internal.ListingRelay;
import io.clusterresolver.spi.ConfigProperty;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cluster-resolver relay}: serves a cloud provider's listing relay until interrupted, so that
 * a job's hosts ask this process instead of the cloud (one listing at a time for all of them). What
 * a training process does when it binds the relay's address, as a process of its own: a launcher's
 * {@code resolve} ends, a relay must outlive the start of the whole job.
 */
@Command(
    name = "relay",
    mixinStandardHelpOptions = true,
    description = {
      "Serves the listing relay of a cloud provider (aws, gce, azure) on the address its 'relay'"
          + " property names (clusterresolver.<provider>.relay=HOST:PORT, one of this host's addresses),"
          + " until interrupted or --for has passed: every host of the job that sets the same relay asks"
          + " this process for the members instead of the cloud, one listing at a time for all of them.",
      "Lists once at start, so that a mistake (credentials, filters, a port in use) shows at once.",
      ""
    })
public final class RelayCommand extends ResolvingSubcommand {

  @Option(names = "--for", paramLabel = "DURATION",
      description = "Serve for DURATION (like 10m), then exit 0; default: until interrupted.")
  private String serveFor;

  @Override
  public Integer call() throws Exception {
    Duration duration = serveFor == null ? null : ConfigProperty.duration("for").build().parse("--for", serveFor);
    String named = resolverOptions.providerName();
    if (named == null) {
      throw new ConfigurationException("relay: name the provider whose listings to relay with --provider (aws, gce"
          + " or azure)");
    }
    if (ClusterResolvers.provider(named).properties().stream().noneMatch(p -> p.name().equals("relay"))) {
      throw new ConfigurationException("relay: provider '" + named + "' has no listing relay (aws, gce and azure"
          + " have); name one with --provider");
    }
    // Not the relay's own host: fail at once instead of waiting for a relay elsewhere.
    ResolverOptions.Selection selection = resolverOptions.select(environment(),
        Map.of(ConfigProperty.PREFIX + named + ".relay-wait", "1ms"));
    String provider = selection.provider().name();
    Set<InetSocketAddress> before = ListingRelay.servedHere();
    ClusterSpec first = selection.resolver().resolve().clusterSpec(); // one snapshot, as every printed answer
    Set<InetSocketAddress> served = ListingRelay.servedHere();
    if (served.equals(before) || served.isEmpty()) {
      throw new ConfigurationException("relay: this process serves no relay: set " + ConfigProperty.PREFIX + provider
          + ".relay to HOST:PORT with HOST one of this host's addresses and PORT free (and leave " + ConfigProperty.PREFIX
          + provider + ".relay-serve true); if another process holds the port, it was asked like any relay and its"
          + " answers had to prove the relay secret");
    }
    PrintWriter out = out();
    for (InetSocketAddress address : served) {
      out.println("Relaying " + provider + " listings on " + address.getHostString() + ":" + address.getPort()
          + " (first listing: " + first.totalTasks() + " task(s))" + (duration == null ? "" : " for " + serveFor));
    }
    out.flush();
    try {
      if (duration == null) {
        Thread.sleep(Long.MAX_VALUE);
      } else {
        Thread.sleep(duration.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCodes.OK;
  }
}
