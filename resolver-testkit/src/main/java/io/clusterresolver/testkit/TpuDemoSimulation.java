package io.clusterresolver.testkit;

/**
 * The {@code tpu} demo: a {@link SimulatedTpu} with a READY {@code v4-32} pod slice {@code demo-v4-32}
 * whose four workers are listed in worker order, not address order (10.130.0.7, .5, .6, .4); a
 * {@code v3-8} single host, a {@code CREATING} {@code v5litepod-16} and a {@code PREEMPTED}
 * {@code v5p-16} beside it; this process is worker 0 of the pod slice.
 */
public final class TpuDemoSimulation extends DemoSimulation<SimulatedTpu> {

  /** The node the demo resolves. */
  public static final String NODE = "demo-v4-32";

  private TpuDemoSimulation(SimulatedTpu tpu) {
    super("tpu", tpu, tpu.providerProperties(NODE));
  }

  /** Starts the demo. */
  public static TpuDemoSimulation start() {
    SimulatedTpu tpu = SimulatedTpu.start();
    tpu.add(SimulatedTpuNode.builder(NODE).acceleratorType("v4-32")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    tpu.add(SimulatedTpuNode.builder("demo-v3-8").acceleratorType("v3-8").workers("10.130.1.2").build());
    tpu.add(SimulatedTpuNode.builder("demo-v5e-16").acceleratorType("v5litepod-16")
        .state(SimulatedTpuNode.State.CREATING).health(null).build());
    tpu.add(SimulatedTpuNode.builder("demo-v5p-16").acceleratorType("v5p-16").preemptible(true)
        .state(SimulatedTpuNode.State.PREEMPTED).workers("10.130.2.3", "10.130.2.2").build());
    tpu.identifyAs(NODE, 0);
    return new TpuDemoSimulation(tpu);
  }

  /** The simulated Cloud TPU API, to change the nodes while it runs. */
  public SimulatedTpu tpu() {
    return simulation();
  }

  @Override
  public String description() {
    return "simulated Cloud TPU API v2 (" + tpu().project() + ", " + tpu().zone() + ") at " + tpu().endpoint()
        + ": READY v4-32 pod slice " + NODE + " (4 workers), a v3-8, a CREATING v5litepod-16, a PREEMPTED v5p-16;"
        + " this process is worker 0 of " + NODE;
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory extends Starter {
    /** For {@link java.util.ServiceLoader}. */
    public Factory() {
      super("tpu", TpuDemoSimulation::start);
    }
  }
}
