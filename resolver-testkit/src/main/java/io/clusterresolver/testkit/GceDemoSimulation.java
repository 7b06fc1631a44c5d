package io.clusterresolver.testkit;

/**
 * The {@code gce} demo: a {@link SimulatedGce} project with four running instances labelled
 * {@code cluster=demo} in two zones (two {@code a2-highgpu-8g}, whose 8 GPUs come with the machine
 * type, and two {@code n1-standard-8} with one attached T4 each), plus a stopped instance, a TPU VM
 * host and an instance of another cluster; this process is the first instance.
 */
public final class GceDemoSimulation extends DemoSimulation<SimulatedGce> {

  private GceDemoSimulation(SimulatedGce gce) {
    super("gce", gce, with(gce.providerProperties(), "clusterresolver.gce.labels", "cluster=demo"));
  }

  /** Starts the demo project. */
  public static GceDemoSimulation start() {
    SimulatedGce gce = SimulatedGce.start("demo-project");
    gce.addTypical(0, 2, b -> b.machineType("a2-highgpu-8g").label("cluster", "demo").zone("us-central1-a"));
    gce.addTypical(2, 2, b -> b.machineType("n1-standard-8").guestAccelerators("nvidia-tesla-t4", 1)
        .label("cluster", "demo").zone("us-central1-b"));
    gce.addTypical(4, 1, b -> b.label("cluster", "demo").status("TERMINATED"));
    gce.addTypical(5, 1, b -> b.machineType("ct5lp-hightpu-4t").label("cluster", "demo").label("tpu_name", "demo-tpu")
        .label("tpu_cores", "4"));
    gce.addTypical(6, 1, b -> b.label("cluster", "other"));
    gce.identifyAs(SimulatedGceInstance.typical(0).build().name());
    return new GceDemoSimulation(gce);
  }

  /** The simulated project, to change it while it runs. */
  public SimulatedGce gce() {
    return simulation();
  }

  @Override
  public String description() {
    return "simulated Compute Engine (project " + gce().project() + ") at " + gce().endpoint() + ": "
        + gce().instances().size() + " instances, 4 running with label cluster=demo; this process is "
        + SimulatedGceInstance.typical(0).build().name();
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory extends Starter {
    /** For {@link java.util.ServiceLoader}. */
    public Factory() {
      super("gce", GceDemoSimulation::start);
    }
  }
}
