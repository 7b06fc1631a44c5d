package io.clusterresolver.testkit;

/**
 * The {@code azure} demo: a {@link SimulatedAzure} with resource group {@code demo-rg} holding four
 * running VMs tagged {@code cluster=demo} (two {@code Standard_ND96asr_v4} with 8 GPUs each tagged
 * {@code role=chief}/{@code worker}, two {@code Standard_D8s_v5} workers), one deallocated VM and
 * one VM of another cluster, with this process on the first VM. Starting it sets the
 * {@code javax.net.ssl.trustStore} system properties to the simulation's trust store, which is how
 * the {@code azure} provider comes to trust its HTTPS endpoint.
 */
public final class AzureDemoSimulation extends DemoSimulation<SimulatedAzure> {

  private AzureDemoSimulation(SimulatedAzure azure) {
    super("azure", azure, with(azure.providerProperties("demo-rg"), "clusterresolver.azure.tags", "cluster=demo"));
  }

  /** Starts the demo world and trusts it (system properties). */
  public static AzureDemoSimulation start() {
    SimulatedAzure azure = SimulatedAzure.start();
    azure.addTypical(0, 1, b -> b.resourceGroup("demo-rg").size("Standard_ND96asr_v4").tag("cluster", "demo").tag("role", "chief"));
    azure.addTypical(1, 1, b -> b.resourceGroup("demo-rg").size("Standard_ND96asr_v4").tag("cluster", "demo").tag("role", "worker"));
    azure.addTypical(2, 2, b -> b.resourceGroup("demo-rg").size("Standard_D8s_v5").tag("cluster", "demo").tag("role", "worker"));
    azure.addTypical(4, 1, b -> b.resourceGroup("demo-rg").tag("cluster", "demo").tag("role", "worker").powerState("deallocated"));
    azure.addTypical(5, 1, b -> b.resourceGroup("demo-rg").tag("cluster", "other"));
    azure.identifyAs(azure.resourceId(azure.vms().get(0)));
    azure.trustStoreProperties().forEach(System::setProperty);
    return new AzureDemoSimulation(azure);
  }

  /** The simulated Azure, to change the world while it runs. */
  public SimulatedAzure azure() {
    return simulation();
  }

  @Override
  public String description() {
    return "simulated Azure Resource Manager at " + azure().endpoint() + " (IMDS " + azure().imdsEndpoint() + "): "
        + azure().vms().size() + " VMs in demo-rg, 4 running with tag cluster=demo; this process is "
        + azure().vms().get(0).name();
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory extends Starter {
    /** For {@link java.util.ServiceLoader}. */
    public Factory() {
      super("azure", AzureDemoSimulation::start);
    }
  }
}
